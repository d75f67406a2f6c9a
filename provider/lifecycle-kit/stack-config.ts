import { contextKey, processContext, rememberSecret } from "../context/process";

/** The stack configuration the provider reads, namespaced keys as `configure` receives them. */
const STACK_KEYS = {
  token: "service:token",
  baseUrl: "service:baseUrl",
  acceptLanguage: "service:acceptLanguage",
  hostOverrides: "service:hostOverrides",
  retryBudgetSeconds: "service:retryBudgetSeconds",
} as const;

/** What `configure` read from the stack, as strings (secrets arrive readable). */
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
  rememberSecret(settings.token);
  processContext().get(STACK).settings = settings;
}

/** The settings `configure` read in this process (none before it ran). */
export function stackSettings(): StackSettings {
  return processContext().get(STACK).settings;
}
