import { z } from "zod";
import type { AcceptLanguage, ConnectionInput } from "../../contract/common-types";
import type { ApiVersion } from "../../contract/versions";
import { ServiceClient } from "../client/client";
import { type ClientOptions, resolveOptions } from "../client/config";
import { LimiterRegistry } from "../client/limiter";
import { contextKey, processContext } from "../context/process";
import { ConfigurationError } from "../errors/base";
import { stackSettings } from "./stack-config";

/** What a resource says about how to reach the service. */
export interface ClientRequest {
  readonly connection?: ConnectionInput | undefined;
  readonly apiVersion?: ApiVersion | undefined;
  readonly acceptLanguage?: AcceptLanguage | undefined;
}

const CLIENTS = contextKey("API clients per credentials", () => new Map<string, ServiceClient>());

/**
 * The rate limiters of this provider process, on its clock: every client of a token in the process
 * waits on one, including the clients a second copy of the package (the runtime bundle) makes.
 */
const LIMITERS = contextKey("rate limiters per credential", (context) => new LimiterRegistry(context.clock));

/**
 * The client for one resource. Each setting falls back on its own: the resource's `connection` member,
 * then the stack config read in `configure`, then the SERVICE_* environment variables (which
 * ServiceClient reads itself). Clients are shared per settings, so their pool is too; each gets the
 * process's clock and its token's limiter from the process context.
 */
export function clientFor(request: ClientRequest): ServiceClient {
  const stack = stackSettings();
  const token = request.connection?.token ?? stack.token;
  const baseUrl = request.connection?.baseUrl ?? stack.baseUrl;
  const acceptLanguage = request.acceptLanguage ?? (stack.acceptLanguage as AcceptLanguage | undefined);
  const budget = stack.retryBudgetSeconds === undefined ? undefined : Number(stack.retryBudgetSeconds) * 1000;
  const key = JSON.stringify([token, baseUrl, request.apiVersion, acceptLanguage, budget]);
  const clients = processContext().get(CLIENTS);
  let client = clients.get(key);
  if (!client) {
    const context = processContext();
    const options: ClientOptions = {
      token,
      baseUrl,
      apiVersion: request.apiVersion,
      acceptLanguage,
      retry: budget === undefined ? undefined : { maxElapsedMs: budget },
      advice: "pulumi",
      clock: () => context.clock.now(),
      sleep: (ms) => context.clock.sleep(ms),
    };
    const settings = resolveOptions(options);
    const limiter =
      settings.rateLimitPerSecond > 0
        ? context.get(LIMITERS).limiterFor({
            token: settings.token,
            baseUrl: settings.baseUrl,
            perSecond: settings.rateLimitPerSecond,
          })
        : null;
    client = new ServiceClient({ ...options, limiter });
    clients.set(key, client);
  }
  return client;
}

/** A stable key for "the same service and credentials", for sharing listings and locks. */
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
  const raw = stackSettings().hostOverrides ?? process.env.SERVICE_HOST_OVERRIDES;
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigurationError(
      'service:hostOverrides (or SERVICE_HOST_OVERRIDES) is not JSON: set it to an object of hostname to origin URL, such as {"hooks.example.test": "http://127.0.0.1:9000"}.',
    );
  }
  const parsed = HostOverrides.safeParse(json);
  if (!parsed.success) {
    throw new ConfigurationError(
      'service:hostOverrides (or SERVICE_HOST_OVERRIDES) maps a hostname to something other than an http(s) origin URL: set it to an object of hostname to origin URL, such as {"hooks.example.test": "http://127.0.0.1:9000"}.',
    );
  }
  return parsed.data;
}
