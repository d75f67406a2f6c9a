import type { Clock } from "../../provider/context/clock";
import { ProcessContext, processContext, setProcessContext } from "../../provider/context/process";
import { configure } from "../../provider/runtime-contract";
import { resolve } from "../../provider/settings/resolve";
import type { Settings } from "../../provider/settings/value";
import { HOOKS_TOKEN } from "./fixtures";

let configured: Record<string, string> = {};

/** The settings each simulated provider process's `configure` resolved, by its process context. */
const PROVIDERS = new WeakMap<ProcessContext, Settings>();

/**
 * Starts a new provider process and points it at a sandbox, the way the engine's `configure` does from
 * stack config. Every test that calls it starts with no caches, claims or limiters.
 */
export function configureStack(
  baseUrl: string,
  token = HOOKS_TOKEN,
  extra: Record<string, string> = {},
  options: { clock?: Clock } = {},
): ProcessContext {
  return configureProcess({ "service:token": token, "service:baseUrl": baseUrl, ...extra }, options);
}

/** Starts a new provider process configured from the stack config `values`, and nothing else. */
export function configureProcess(
  values: Record<string, string>,
  options: { clock?: Clock } = {},
): ProcessContext {
  configured = values;
  return nextProcess(options);
}

/** A new provider process with the same stack configuration, as the next `pulumi up` or a refresh runs in. */
export function nextProcess(options: { clock?: Clock } = {}): ProcessContext {
  const context = setProcessContext(new ProcessContext(options));
  const values = configured;
  PROVIDERS.set(context, configure({ get: (key) => values[key] }));
  return context;
}

/**
 * The settings of the provider of the current process, as its `configure` resolved them; in a process that
 * configured none, the environment's, read now (as a program's own process resolves them where it starts).
 */
export function providerSettings(): Settings {
  return PROVIDERS.get(processContext()) ?? resolve({});
}

/** A lifecycle's methods, or any functions that take the provider's settings first, without that argument. */
export type UnderProvider<T> = {
  [K in keyof T]: T[K] extends (settings: Settings, ...rest: infer A) => infer R ? (...rest: A) => R : T[K];
};

/** `methods` as the current process's provider calls them: each under `providerSettings()`, read at the call. */
export function underProvider<T extends object>(methods: T): UnderProvider<T> {
  return Object.fromEntries(
    Object.entries(methods).map(([name, method]) => [
      name,
      typeof method === "function"
        ? (...rest: unknown[]) => (method as (...args: unknown[]) => unknown)(providerSettings(), ...rest)
        : method,
    ]),
  ) as UnderProvider<T>;
}
