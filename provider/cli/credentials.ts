/**
 * The API client for a stack, with its credentials taken only from what the operator chose: `--token` and
 * `--base-url` first (as a resource's `connection` would be), then the config of a stack the operator
 * named (`service:token`, `service:baseUrl`), then SERVICE_API_TOKEN and SERVICE_BASE_URL. Nothing comes
 * from a preview or a state file: a pull request writes those, and must not choose where a token goes or
 * which stack's secrets are read. The client is the provider's own, so the shared limit of 10 requests per
 * second and the retries apply.
 */
import { ServiceClient } from "../client/client";
import { credentialsOf, withSettings } from "../client/config";
import { rememberSecret } from "../context/process";
import { STACK_KEYS } from "../lifecycle/stack-config";
import { resolve } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { CliFailure } from "./failure";

/** What the command line says about credentials, with the settings of the command's environment. */
export interface CredentialFlags {
  readonly token?: string | undefined;
  readonly baseUrl?: string | undefined;
  /** The settings `main` resolved from the environment. */
  readonly settings: Settings;
}

/** The stack config keys the provider reads its credentials from. */
export const TOKEN_KEY = STACK_KEYS.token;
export const BASE_URL_KEY = STACK_KEYS.baseUrl;

/**
 * The credential flags of a command, with every token the command may use (the flag's and the
 * environment's) registered as a secret before the first child process or request, so that no line
 * repeats one, whichever program printed it.
 */
export function credentialFlags(
  values: { token?: unknown; "base-url"?: unknown },
  settings: Settings,
): CredentialFlags {
  const flags = {
    token: values.token as string | undefined,
    baseUrl: values["base-url"] as string | undefined,
    settings,
  };
  rememberSecret(flags.token);
  rememberSecret(credentialsOf({}, settings).token);
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
  return credentialsOf({}, flags.settings).baseUrl !== undefined
    ? "SERVICE_BASE_URL"
    : "the default, the local sandbox";
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
  // The flags go ahead of the stack's config as a resource's `connection` would; the environment is the
  // one `main` resolved.
  const settings: Settings = {
    ...resolve({ connection: flags, stack: { get: (key) => config[key] }, env: {} }),
    env: flags.settings.env,
  };
  if (credentialsOf({}, settings).token === undefined) {
    throw new CliFailure(
      `${label}: no API token: give --token, set SERVICE_API_TOKEN, or name the stack with --stacks in its project folder, where its service:token is set (\`pulumi config set --secret service:token …\`).`,
    );
  }
  try {
    return new ServiceClient(withSettings({ advice: "pulumi" }, settings));
  } catch (error) {
    throw new CliFailure(`${label}: ${(error as Error).message}`);
  }
}
