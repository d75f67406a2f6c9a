import type { Clock } from "../../provider/context/clock";
import { ProcessContext, setProcessContext } from "../../provider/context/process";
import { configure } from "../../provider/runtime-contract";
import { HOOKS_TOKEN } from "./fixtures";

let configured: Record<string, string> = {};

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
  configured = { "service:token": token, "service:baseUrl": baseUrl, ...extra };
  return nextProcess(options);
}

/** A new provider process with the same stack configuration, as the next `pulumi up` or a refresh runs in. */
export function nextProcess(options: { clock?: Clock } = {}): ProcessContext {
  const context = setProcessContext(new ProcessContext(options));
  const values = configured;
  configure({ get: (key) => values[key] });
  return context;
}
