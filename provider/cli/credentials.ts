/**
 * The API client for a stack, with its credentials taken only from what the operator chose: `--token` and
 * `--base-url` first (as a resource's `connection` would be), then the config of a stack the operator
 * named (`service:token`, `service:baseUrl`), then SERVICE_API_TOKEN and SERVICE_BASE_URL. Nothing comes
 * from a preview or a state file: a pull request writes those, and must not choose where a token goes or
 * which stack's secrets are read. The client is the provider's own, so the shared limit of 10 requests per
 * second and the retries apply.
 */
import { ServiceClient } from "../client/client";
import { credentialsOf, withTextSettings } from "../client/config";
import { rememberSecret } from "../context/process";
import { STACK_KEYS } from "../lifecycle/stack-config";
import { CliFailure } from "./failure";

/** What the command line says about credentials. */
export interface CredentialFlags {
  readonly token?: string | undefined;
  readonly baseUrl?: string | undefined;
}

/** The stack config keys the provider reads its credentials from. */
export const TOKEN_KEY = STACK_KEYS.token;
export const BASE_URL_KEY = STACK_KEYS.baseUrl;

/**
 * The credential flags of a command, with every token the command may use (the flag's and the
 * environment's) registered as a secret before the first child process or request, so that no line
 * repeats one, whichever program printed it.
 */
export function credentialFlags(values: { token?: unknown; "base-url"?: unknown }): CredentialFlags {
  const flags = {
    token: values.token as string | undefined,
    baseUrl: values["base-url"] as string | undefined,
  };
  rememberSecret(flags.token);
  rememberSecret(credentialsOf({}).token);
  return flags;
}

/** The stacks the operator named, with `--stack` (repeatable) and `--stacks a,b`, in order, once each. */
export function namedStacks(values: { stack?: unknown; stacks?: unknown }): string[] {
  const listed = ((values.stacks as string | undefined) ?? "").split(",");
  return [
    ...new Set([...((values.stack as string[] | undefined) ?? []), ...listed].map((s) => s.trim())),
  ].filter(Boolean);
}

/** Where a client's base URL came from, for a message. */
export function baseUrlSource(flags: CredentialFlags, config: Readonly<Record<string, string>>): string {
  if (flags.baseUrl !== undefined) return "--base-url";
  if (config[BASE_URL_KEY] !== undefined) return `the stack's ${BASE_URL_KEY}`;
  return credentialsOf({}).baseUrl !== undefined ? "SERVICE_BASE_URL" : "the default, the local sandbox";
}

/**
 * The client of the stack `label`, whose config is `config`: that of a stack the operator named, else
 * empty. A stack without a token anywhere fails naming the places to give one.
 */
export function clientForStack(
  label: string,
  flags: CredentialFlags,
  config: Readonly<Record<string, string>>,
): ServiceClient {
  const token = flags.token ?? config[TOKEN_KEY];
  if (credentialsOf({ token }).token === undefined) {
    throw new CliFailure(
      `${label}: no API token: give --token, set SERVICE_API_TOKEN, or name the stack with --stacks in its project folder, where its service:token is set (\`pulumi config set --secret service:token …\`).`,
    );
  }
  const texts = Object.fromEntries(Object.entries(STACK_KEYS).map(([name, key]) => [name, config[key]]));
  try {
    return new ServiceClient(
      withTextSettings({ token, baseUrl: flags.baseUrl ?? config[BASE_URL_KEY], advice: "pulumi" }, texts),
    );
  } catch (error) {
    throw new CliFailure(`${label}: ${(error as Error).message}`);
  }
}
