import type { AcceptLanguage, ConnectionInput } from "../../contract/common-types";
import type { ApiVersion } from "../../contract/versions";
import {
  type ClientOptions,
  type ResolvedOptions,
  resolveOptions,
  settingProblem,
  withSettings,
} from "../client/config";
import { contextKey, processContext } from "../context/process";
import { settingText, withConnection } from "../settings/resolve";
import { SETTING_ROWS, SETTINGS, type Setting, type SettingName, stackKey } from "../settings/table";
import type { Settings } from "../settings/value";
import { type CheckFailure, splitRule } from "./check";
import type { ResourceProps } from "./methods";
import { containsUnknown } from "./unknowns";

/** What a resource says about how to reach the service. */
export interface ClientRequest {
  readonly connection?: ConnectionInput | undefined;
  readonly apiVersion?: ApiVersion | undefined;
  readonly acceptLanguage?: AcceptLanguage | undefined;
}

/** The settings of one resource's client: the resource's `connection` ahead of the provider's `settings`. */
const resourceSettings = (request: ClientRequest, settings: Settings) =>
  withConnection(settings, request.connection);

/**
 * The options of one resource's client. Each setting falls back on its own: the resource's `connection`
 * member, then the stack config read in `configure`, then the SERVICE_* environment variables, then its
 * default (client/config.ts resolves them). The clock is the process's.
 */
function clientOptions(request: ClientRequest, settings: Settings): ClientOptions {
  const context = processContext();
  return withSettings(
    {
      apiVersion: request.apiVersion,
      acceptLanguage: request.acceptLanguage,
      advice: "pulumi",
      clock: () => context.clock.now(),
      sleep: (ms) => context.clock.sleep(ms),
    },
    resourceSettings(request, settings),
  );
}

/**
 * What a resource's client would differ by from another: its own API version and language, and the
 * value of every client setting. Two requests with the same key make clients that behave the same, so
 * they share one.
 */
function clientKey(request: ClientRequest, settings: Settings): string {
  const layered = resourceSettings(request, settings);
  return JSON.stringify([
    request.apiVersion,
    request.acceptLanguage,
    SETTING_ROWS.filter(([, s]) => s.reader === "client").map(([name]) => settingText(layered, name)),
  ]);
}

/**
 * What `make` builds from the options of a resource's client under the provider's `settings` (those its
 * `configure` resolved), built once per settings in a process, under the key clients are
 * shared by, and kept in the process context as `description`.
 */
export function perSettings<T>(
  description: string,
  make: (options: ClientOptions, settings: Settings) => T,
): (request: ClientRequest, settings: Settings) => T {
  const built = contextKey(description, () => new Map<string, T>());
  return (request, settings) => {
    const key = clientKey(request, settings);
    const values = processContext().get(built);
    if (!values.has(key)) values.set(key, make(clientOptions(request, settings), settings));
    return values.get(key)!;
  };
}

/**
 * The settings one resource's client would resolve, without making the client: a diff compares the
 * credentials with those state recorded, and must not load the HTTP client to do so. Resolved once per
 * settings in a process, as clients are made once (every resource of an unchanged preview is diffed).
 *
 * @throws ConfigurationError as the client's constructor would, on a missing or malformed setting.
 */
export const resolvedSettings: (request: ClientRequest, settings: Settings) => ResolvedOptions = perSettings(
  "resolved client settings",
  (options, settings) => resolveOptions(options, settings),
);

/**
 * Why the stack config or the environment would give a resource's client a malformed setting (a base URL
 * that is not an http(s) URL, such as the `https://<...>` placeholder a stack file was copied with), in one
 * sentence that names the setting, where it was set and the next step; undefined when every setting holds.
 * Check runs it, so that `pulumi preview` refuses the setting with no API call instead of the first call of
 * `pulumi up`. The resource's own `connection` is checked with its inputs; a missing token is left to the
 * first call, which says so.
 */
function settingsFailure(request: ClientRequest, settings: Settings): string | undefined {
  const problem = settingProblem(clientOptions(request, settings), resourceSettings(request, settings));
  if (!problem) return undefined;
  const name = problem.setting as SettingName;
  const setting: Setting = SETTINGS[name];
  const config = setting.config === undefined ? undefined : stackKey(setting.config);
  const fromStack = config !== undefined && settings.stack[name] !== undefined;
  const { words: rule, fix } = splitRule(problem.rule);
  if (fromStack) {
    const set = `\`pulumi config set ${config} ${setting.placeholder ?? "<value>"}\``;
    return `The stack config ${config} ${rule}: ${fix ?? `give the right value with ${set}`}.`;
  }
  return `${setting.env}, in the environment of the \`pulumi\` command, ${rule}: ${fix ?? "correct it, or unset it"}.`;
}

/**
 * `result`, a resource's check, with `settingsFailure`'s sentence added as a failure when its inputs are
 * otherwise valid and its `connection` is known (a value still unknown at preview is checked at `up`),
 * under the provider's `settings` (those its `configure` resolved).
 */
export function withSettingsFailure<T extends { inputs: ResourceProps; failures: CheckFailure[] }>(
  result: T,
  settings: Settings,
): T {
  if (result.failures.length > 0 || containsUnknown(result.inputs.connection)) return result;
  const reason = settingsFailure(
    { connection: result.inputs.connection as ConnectionInput | undefined },
    settings,
  );
  return reason === undefined ? result : { ...result, failures: [{ property: "", reason }] };
}
