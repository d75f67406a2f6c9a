import type { AcceptLanguage, ConnectionInput } from "../../contract/common-types";
import type { ApiVersion } from "../../contract/versions";
import {
  type ClientOptions,
  type ResolvedOptions,
  resolveOptions,
  settingsKey,
  withTextSettings,
} from "../client/config";
import { contextKey, processContext } from "../context/process";
import { stackSettings } from "./stack-config";

/** What a resource says about how to reach the service. */
export interface ClientRequest {
  readonly connection?: ConnectionInput | undefined;
  readonly apiVersion?: ApiVersion | undefined;
  readonly acceptLanguage?: AcceptLanguage | undefined;
}

/**
 * The options of one resource's client. Each setting falls back on its own: the resource's `connection`
 * member, then the stack config read in `configure`, then the SERVICE_* environment variables, then its
 * default (client/config.ts resolves them). The clock is the process's.
 */
function clientOptions(request: ClientRequest): ClientOptions {
  const context = processContext();
  return withTextSettings(
    {
      token: request.connection?.token,
      baseUrl: request.connection?.baseUrl,
      apiVersion: request.apiVersion,
      acceptLanguage: request.acceptLanguage,
      advice: "pulumi",
      clock: () => context.clock.now(),
      sleep: (ms) => context.clock.sleep(ms),
    },
    stackSettings(),
  );
}

/**
 * What `make` builds from the options of a resource's client, built once per settings in a process,
 * under the key clients are shared by, and kept in the process context as `description`.
 */
export function perSettings<T>(
  description: string,
  make: (options: ClientOptions) => T,
): (request: ClientRequest) => T {
  const built = contextKey(description, () => new Map<string, T>());
  return (request) => {
    const options = clientOptions(request);
    const key = settingsKey(options);
    const values = processContext().get(built);
    if (!values.has(key)) values.set(key, make(options));
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
export const resolvedSettings: (request: ClientRequest) => ResolvedOptions = perSettings(
  "resolved client settings",
  (options) => resolveOptions(options),
);
