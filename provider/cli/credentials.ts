/**
 * The API client for a stack, with its credentials resolved as the provider resolves them: `--token` and
 * `--base-url` first (as a resource's `connection` would be), then the stack's config (`service:token`,
 * `service:baseUrl`), then SERVICE_API_TOKEN and SERVICE_BASE_URL. The client is the provider's own, so the
 * shared limit of 10 requests per second and the retries apply.
 */
import type { ServiceClient } from "../client/client";
import { credentialsOf } from "../client/config";
import { clientFor } from "../lifecycle/clients";
import { configureFromStack, STACK_KEYS } from "../lifecycle/stack-config";
import { CliFailure } from "./failure";
import type { CommandIo } from "./io";
import { projectIn, stackConfig } from "./pulumi-cli";

/** What the command line says about credentials. */
export interface CredentialFlags {
  readonly token?: string | undefined;
  readonly baseUrl?: string | undefined;
}

/** The stack config keys the provider reads its credentials from. */
export const TOKEN_KEY = STACK_KEYS.token;
export const BASE_URL_KEY = STACK_KEYS.baseUrl;

/**
 * The client of the stack `label`, whose config is `config` (empty when it is not read). A stack without
 * a token anywhere fails naming the three places to give one.
 */
export function clientForStack(
  label: string,
  flags: CredentialFlags,
  config: Readonly<Record<string, string>>,
): ServiceClient {
  const settings: Record<string, string | undefined> = {
    ...config,
    [TOKEN_KEY]: flags.token ?? config[TOKEN_KEY],
    [BASE_URL_KEY]: flags.baseUrl ?? config[BASE_URL_KEY],
  };
  if (credentialsOf({ token: settings[TOKEN_KEY] }).token === undefined) {
    throw new CliFailure(
      `${label}: no API token: give --token, set SERVICE_API_TOKEN, or set the stack's service:token (\`pulumi config set --secret service:token …\`) and run in its project folder.`,
    );
  }
  configureFromStack({ get: (key) => settings[key] });
  try {
    return clientFor({});
  } catch (error) {
    throw new CliFailure(`${label}: ${(error as Error).message}`);
  }
}

/**
 * The config of `project/stack` as the provider reads it, when `cwd` is that project's folder: read with
 * `pulumi config --show-secrets --json`. Undefined when `cwd` is another folder. When it cannot be read
 * (no such stack in the backend, no passphrase) and SERVICE_API_TOKEN is set, the environment's token is
 * used, as the provider would without stack config, and stderr says so; else the failure names the stack.
 */
export function configInFolder(
  cwd: string,
  state: { readonly project: string; readonly stack: string; readonly label: string },
  io: CommandIo,
): Record<string, string> | undefined {
  if (projectIn(cwd) !== state.project) return undefined;
  try {
    return stackConfig(cwd, state.stack, state.label);
  } catch (error) {
    if (credentialsOf({}).token === undefined) throw error;
    io.stderr(`${(error as Error).message.replace(/\.$/, "")}; using SERVICE_API_TOKEN instead.\n`);
    return undefined;
  }
}
