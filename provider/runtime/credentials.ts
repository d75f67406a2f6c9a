import { z } from "zod";
import type { ApiVersion } from "../api/versions";
import { ServiceClient } from "../client/client";
import { rememberSecret } from "../client/redact";

/** The optional `connection` input: credentials for one resource, ahead of stack config and environment. */
export const ConnectionInput = z.object({
  token: z.string().min(1, "must not be empty"),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
});
export type ConnectionInput = z.infer<typeof ConnectionInput>;

export const AcceptLanguage = z.enum(["en", "ja"], "must be en or ja");

/** What `configure` read from the stack: `service:token`, `service:baseUrl`, `service:acceptLanguage`. */
interface StackSettings {
  token?: string | undefined;
  baseUrl?: string | undefined;
  acceptLanguage?: string | undefined;
  hostOverrides?: string | undefined;
}
let stack: StackSettings = {};

export interface ConfigSource {
  get(key: string): string | undefined;
}

/** Called by every provider's `configure`, which the engine runs before the first operation. */
export function configureFromStack(config: ConfigSource): void {
  stack = {
    token: config.get("service:token"),
    baseUrl: config.get("service:baseUrl"),
    acceptLanguage: config.get("service:acceptLanguage"),
    hostOverrides: config.get("service:hostOverrides"),
  };
  rememberSecret(stack.token);
}

const clients = new Map<string, ServiceClient>();

export interface ClientRequest {
  readonly connection?: ConnectionInput | undefined;
  readonly apiVersion?: ApiVersion | undefined;
  readonly acceptLanguage?: string | undefined;
}

/**
 * The client for one resource: the `connection` input first, then the stack config read in `configure`,
 * then the SERVICE_* environment variables (which ServiceClient reads itself). Clients are shared per
 * credentials, so their rate limiter and connection pool are too.
 */
export function clientFor(request: ClientRequest): ServiceClient {
  const token = request.connection?.token ?? stack.token;
  const baseUrl = request.connection?.baseUrl ?? (request.connection ? undefined : stack.baseUrl);
  const acceptLanguage = (request.acceptLanguage ?? stack.acceptLanguage) as "en" | "ja" | undefined;
  const key = JSON.stringify([token, baseUrl, request.apiVersion, acceptLanguage]);
  let client = clients.get(key);
  if (!client) {
    client = new ServiceClient({ token, baseUrl, apiVersion: request.apiVersion, acceptLanguage });
    clients.set(key, client);
  }
  return client;
}

/** A stable key for "the same organization and credentials", for sharing listings. */
export function credentialKey(client: ServiceClient): string {
  return `${client.options.baseUrl}\u0000${client.options.token}\u0000${client.apiVersion}`;
}

const HostOverrides = z.record(z.string(), z.url({ protocol: /^https?$/ }));

/**
 * Where to fetch https://<hostname>/... from instead, for hostnames that only exist locally (the sandbox
 * and its stand-in origins): stack config `service:hostOverrides` or SERVICE_HOST_OVERRIDES, a JSON object
 * of hostname to origin, the same shape as the sandbox seed's `hosts`.
 */
export function hostOverrides(): Record<string, string> {
  const raw = stack.hostOverrides ?? process.env.SERVICE_HOST_OVERRIDES;
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(
      "service:hostOverrides (or SERVICE_HOST_OVERRIDES) must be a JSON object of hostname to origin URL",
    );
  }
  const parsed = HostOverrides.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      "service:hostOverrides (or SERVICE_HOST_OVERRIDES) must map hostnames to http(s) origin URLs",
    );
  }
  return parsed.data;
}
