/**
 * The provider plugin's configuration: the same stack settings the dynamic resources read (`service:token`,
 * `service:baseUrl`, ... each a row of settings/table.ts with a config key, read by lifecycle/stack-config.ts
 * and described by schema.json's config section, both derived from that table), which the engine sends in
 * Configure, or the properties of an explicit `service` provider resource.
 */
import { PLUGIN_PACKAGE } from "../../contract/pulumi-package";
import { type ConfigSource, configureFromStack } from "../lifecycle/stack-config";

/**
 * The engine names each configuration variable `<package>:config:<key>` (`service:config:token`), with
 * secrets revealed and values that are not strings in JSON; the stack settings are read as `service:token`.
 */
export function configSourceOf(variables: Iterable<readonly [string, string]>): ConfigSource {
  const prefix = `${PLUGIN_PACKAGE}:config:`;
  const settings = new Map<string, string>();
  for (const [name, value] of variables) {
    if (name.startsWith(prefix)) settings.set(`${PLUGIN_PACKAGE}:${name.slice(prefix.length)}`, value);
  }
  return { get: (key) => settings.get(key) };
}

/** Configures this process from the variables of the engine's Configure request. */
export function configure(variables: Iterable<readonly [string, string]>): void {
  configureFromStack(configSourceOf(variables));
}
