import { contextKey, processContext, rememberSecret } from "../context/process";

/**
 * The stack configuration the provider reads (the dynamic resources' and the provider plugin's alike),
 * namespaced keys as `configure` receives them. Each setting left out falls back on its own to the
 * environment; a resource's `connection` input goes ahead of both.
 */
export const STACK_KEYS = {
  /** The API token, with webhooks enabled for webhooks and domains (a secret). Falls back to SERVICE_API_TOKEN. */
  token: "service:token",
  /** The API base URL. Falls back to SERVICE_BASE_URL, then the local sandbox (http://127.0.0.1:8787). */
  baseUrl: "service:baseUrl",
  /** Display language of the service's answers, `en` (default) or `ja`. */
  acceptLanguage: "service:acceptLanguage",
  /**
   * A JSON object of hostname to origin URL, where to fetch `https://<hostname>/...` from instead, for
   * hostnames that exist only locally (the sandbox's). Falls back to SERVICE_HOST_OVERRIDES.
   */
  hostOverrides: "service:hostOverrides",
  /** Seconds one request may spend on retries, 429s included (default 60). */
  retryBudgetSeconds: "service:retryBudgetSeconds",
} as const;

/** The settings that are secrets: the schema marks them so, and every SDK stores them encrypted. */
export const SECRET_SETTINGS: readonly (keyof typeof STACK_KEYS)[] = ["token"];

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
