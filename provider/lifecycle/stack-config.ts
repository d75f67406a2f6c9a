import { rememberSecret } from "../context/process";
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

/**
 * Resolves the settings from the stack's configuration `config` and the environment, once, for every
 * provider's `configure` (the engine runs it before the first operation); each secret is remembered, so
 * that no message repeats it. Answers the settings, for the provider to keep and hand to every lifecycle
 * call, with their `warnings` for the caller to show.
 */
export function configureFromStack(config: ConfigSource): Settings {
  const settings = resolve({ stack: config });
  for (const [name, setting] of SETTING_ROWS) if (setting.secret) rememberSecret(settings.stack[name]);
  return settings;
}
