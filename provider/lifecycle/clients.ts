import { ServiceClient } from "../client/client";
import { ConfigurationError } from "../errors/base";
import { settingText } from "../settings/resolve";
import { schemaOf } from "../settings/schema-kit";
import { SETTINGS, stackKey } from "../settings/table";
import type { Settings } from "../settings/value";
import { type ClientRequest, perSettings } from "./client-settings";

/**
 * The client for one resource, with the options client-settings.ts gives it. Clients are shared per
 * settings, so their pool is too; each waits on its token's limiter in the process context like every
 * client of the process.
 */
export const clientFor: (request: ClientRequest, settings: Settings) => ServiceClient = perSettings(
  "API clients per credentials",
  (options) => new ServiceClient(options),
);

/** A stable key for "the same service and credentials", for sharing listings and locks. */
export function credentialKey(client: ServiceClient): string {
  return `${client.options.baseUrl}\u0000${client.options.token}\u0000${client.apiVersion}`;
}

const { hostOverrides: HOST_OVERRIDES } = SETTINGS;

/** How the messages name the setting: its stack config key, or its environment variable. */
const HOST_OVERRIDES_NAMES = `${stackKey(HOST_OVERRIDES.config)} (or ${HOST_OVERRIDES.env})`;

/**
 * Where to fetch https://<hostname>/... from instead, for hostnames that only exist locally (the sandbox
 * and its stand-in origins): stack config `service:hostOverrides` or SERVICE_HOST_OVERRIDES, a JSON object
 * of hostname to origin, the same shape as the sandbox seed's `hosts`; from the provider's `settings`
 * (those its `configure` resolved).
 */
export function hostOverrides(settings: Settings): Record<string, string> {
  const raw = settingText(settings, "hostOverrides");
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigurationError(
      `${HOST_OVERRIDES_NAMES} is not JSON: set it to an object of hostname to origin URL, such as {"hooks.example.test": "http://127.0.0.1:9000"}.`,
    );
  }
  const parsed = schemaOf(HOST_OVERRIDES).safeParse(json);
  if (!parsed.success) {
    throw new ConfigurationError(
      `${HOST_OVERRIDES_NAMES} maps a hostname to something other than an http(s) origin URL: set it to an object of hostname to origin URL, such as {"hooks.example.test": "http://127.0.0.1:9000"}.`,
    );
  }
  return parsed.data;
}
