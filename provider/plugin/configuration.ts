/**
 * The provider plugin's configuration: the same stack settings the dynamic resources read (`service:token`,
 * `service:baseUrl`, ... each a row of settings/table.ts with a config key, read by settings/resolve.ts
 * and described by schema.json's config section, both derived from that table), which the engine sends in
 * Configure, or the properties of an explicit `service` provider resource.
 */
import { PLUGIN_PACKAGE } from "../../contract/pulumi-package";
import { rememberSecret } from "../context/process";
import { configureFromStack } from "../lifecycle/stack-config";
import type { ConfigSource, Settings } from "../settings/value";
import type { WarnOnResource } from "./engine-log";
import { revealSecrets } from "./secrets";
import type { ConfigureRequest } from "./server-hooks";

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

/**
 * Configure's `args` as the stack settings `service:<key>`, their secrets unwrapped; every value that
 * arrived secret is remembered as one, so that no message repeats it, whichever setting holds it.
 */
function configSourceOfArgs(args: Readonly<Record<string, unknown>>): ConfigSource {
  const { props, secretKeys } = revealSecrets(args);
  for (const key of secretKeys) {
    const value = props[key];
    rememberSecret(typeof value === "string" ? value : JSON.stringify(value));
  }
  const prefix = `${PLUGIN_PACKAGE}:`;
  return { get: (key) => (key.startsWith(prefix) ? props[key.slice(prefix.length)] : undefined) };
}

/**
 * The settings of the engine's Configure request: its `args`, or its `variables` from an engine that sends
 * no `args`. Each warning about a setting in an old spelling is shown once per process on the provider,
 * through `warn`.
 */
export function configureWith(warn: WarnOnResource): (request: ConfigureRequest) => Settings {
  const shown = new Set<string>();
  return (request) => {
    const source = request.args ? configSourceOfArgs(request.args) : configSourceOf(request.variables);
    const settings = configureFromStack(source);
    for (const warning of settings.warnings) {
      if (shown.has(warning)) continue;
      shown.add(warning);
      warn(request.urn ?? "", warning);
    }
    return settings;
  };
}
