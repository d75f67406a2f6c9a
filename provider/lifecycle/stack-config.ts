import { contextKey, processContext, rememberSecret } from "../context/process";
import { type CONFIG_NAMESPACE, SETTING_ROWS, SETTINGS, type Setting, stackKey } from "../settings/table";

/**
 * The namespaced keys of the settings among `settings` that stack config can set, by setting name. A
 * generic over the table, so that the declarations show the keys themselves and never reach the table's
 * zod schemas.
 */
function stackKeys<T extends Readonly<Record<string, Setting>>>(
  settings: T,
): {
  readonly [K in keyof T as T[K] extends { readonly config: string } ? K : never]: T[K] extends {
    readonly config: infer C extends string;
  }
    ? `${typeof CONFIG_NAMESPACE}:${C}`
    : never;
} {
  return Object.fromEntries(
    Object.entries(settings).flatMap(([name, s]) => (s.config ? [[name, stackKey(s.config)]] : [])),
  ) as never;
}

/**
 * The stack configuration the provider reads (the dynamic resources' and the provider plugin's alike),
 * namespaced keys as `configure` receives them. Each setting left out falls back on its own to the
 * environment; a resource's `connection` input goes ahead of both.
 */
export const STACK_KEYS = stackKeys(SETTINGS);

/** What `configure` read from the stack, by setting name, as strings (secrets arrive readable). */
export type StackSettings = { readonly [K in keyof typeof STACK_KEYS]?: string | undefined };

const STACK = contextKey<{ settings: StackSettings }>("stack configuration", () => ({ settings: {} }));

/** Anything that answers `get(key)`: the engine's ConfigureRequest config, or a test's map. */
export interface ConfigSource {
  /** The value of a namespaced key such as `service:token`, or undefined when the stack does not set it. */
  get(key: string): string | undefined;
}

/** Called by every provider's `configure`, which the engine runs before the first operation. */
export function configureFromStack(config: ConfigSource): void {
  const settings = Object.fromEntries(
    Object.entries(STACK_KEYS).map(([name, key]) => [name, config.get(key)]),
  ) as StackSettings;
  for (const [name, setting] of SETTING_ROWS) {
    if (setting.secret) rememberSecret(settings[name as keyof StackSettings]);
  }
  processContext().get(STACK).settings = settings;
}

/** The settings `configure` read in this process (none before it ran). */
export function stackSettings(): StackSettings {
  return processContext().get(STACK).settings;
}
