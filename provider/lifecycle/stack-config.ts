import { contextKey, processContext, rememberSecret } from "../context/process";
import { resolve } from "../settings/resolve";
import { type ConfigSettingName, SETTING_ROWS, stackKey } from "../settings/table";
import type { ConfigSource, Settings } from "../settings/value";

/**
 * The namespaced stack config key of each setting stack config can set (`STACK_KEYS.token` is
 * `service:token`), by setting name.
 */
export const STACK_KEYS = Object.fromEntries(
  SETTING_ROWS.flatMap(([name, s]) => (s.config ? [[name, stackKey(s.config)]] : [])),
) as Readonly<Record<ConfigSettingName, string>>;

/** What the stack's configuration sets, by setting name, as text (secrets readable). */
export type StackSettings = Settings["stack"];

/**
 * The settings `configure` resolved in this process. The resources' lifecycles under provider/webhook/ and
 * provider/domain/ take them from here until their methods receive them as an argument; everything else is
 * handed them. Before `configure` (a program's own process), the environment's alone, read at each ask.
 */
const CONFIGURED = contextKey<{ settings: Settings | undefined }>("configured settings", () => ({
  settings: undefined,
}));

/**
 * Resolves the settings from the stack's configuration `config` and the environment, once, for every
 * provider's `configure` (the engine runs it before the first operation); each secret is remembered, so
 * that no message repeats it. Answers the settings, their `warnings` for the caller to show.
 */
export function configureFromStack(config: ConfigSource): Settings {
  const settings = resolve({ stack: config });
  for (const [name, setting] of SETTING_ROWS) if (setting.secret) rememberSecret(settings.stack[name]);
  processContext().get(CONFIGURED).settings = settings;
  return settings;
}

/** The settings `configure` resolved in this process, else the environment's. */
export function configuredSettings(): Settings {
  return processContext().get(CONFIGURED).settings ?? resolve({});
}

/** What the stack's configuration set, as `configure` read it (nothing before it ran). */
export function stackSettings(): StackSettings {
  return configuredSettings().stack;
}
