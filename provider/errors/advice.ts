/**
 * Where an error's advice sends the reader depends on where the error surfaced. A plain ServiceClient is
 * configured through its options; a Webhook or Domain through Pulumi config or its `connection` input.
 * Telling a script author to run `pulumi config set` (or a stack's owner to pass a client option) sends
 * them to a setting their code never reads.
 */

import { spellProperty } from "../context/program-language";
import { SETTINGS, type Setting, stackKey } from "../settings/table";

/** `"client"`: a ServiceClient in the user's own code. `"pulumi"`: the client a resource's provider made. */
export type AdviceContext = "client" | "pulumi";

/** How to change each setting an error may name, in one context. */
export interface SettingAdvice {
  /** How to give the API token. */
  readonly token: string;
  /** How to give the base URL. */
  readonly baseUrl: string;
  /** How to lengthen the time a request may spend waiting on 429s and retries. */
  readonly retryBudget: string;
  /** How to lengthen the time one request waits for its answer. */
  readonly timeout: string;
  /** Where the settings live, for a malformed one. */
  readonly settings: string;
}

/** A setting as a plain client sets it: its option, else its environment variable. */
const clientOption = (setting: Setting & { option: { path: string }; env: string }) =>
  `the client's \`${setting.option.path}\` option (or ${setting.env})`;

/** A setting as a stack sets it: the `pulumi config set` command for its key. */
const configSet = (setting: Setting & { config: string }) =>
  `\`pulumi config set ${setting.secret ? "--secret " : ""}${stackKey(setting.config)} ${setting.placeholder ?? "<value>"}\``;

const { token, baseUrl, retryBudget, timeout } = SETTINGS;

const CLIENT_ADVICE: SettingAdvice = {
  token: clientOption(token),
  baseUrl: clientOption(baseUrl),
  retryBudget: clientOption(retryBudget),
  timeout: clientOption(timeout),
  settings: "the client's options (or the SERVICE_* environment variables)",
};

/** A resource's settings, with its `connection` members spelled as the program's language spells them. */
function pulumiAdvice(): SettingAdvice {
  return {
    token: `${configSet(token)} (or the resource's ${spellProperty("connection.token")})`,
    baseUrl: `${configSet(baseUrl)} (or the resource's ${spellProperty("connection.baseUrl")})`,
    retryBudget: configSet(retryBudget),
    timeout: `${timeout.env} in the environment of the \`pulumi\` command`,
    settings: `the stack config (\`pulumi config\`, keys service:*), the resource's ${spellProperty("connection")}, or the SERVICE_* environment variables`,
  };
}

/** The advice for `context`; a plain client's when none is given. A resource's reads the program's language. */
export function adviceFor(context: AdviceContext = "client"): SettingAdvice {
  return context === "client" ? CLIENT_ADVICE : pulumiAdvice();
}

/** A command that runs without the program, on the provider configuration the last update saved in the stack. */
export type SavedStateCommand = "pulumi destroy" | "pulumi refresh";

/**
 * A resource's settings when `command` ran on the credentials saved in the stack (see context/saved-state.ts): a
 * token fixed since then reaches the provider only through `--run-program` (stack config), or once an
 * update has recorded it (the resource's own `connection`).
 */
export function savedStateAdvice(command: SavedStateCommand, source: "config" | "connection"): SettingAdvice {
  const verb = command.slice("pulumi ".length);
  const token =
    source === "connection"
      ? `the resource's ${spellProperty("connection.token")} in the program, then run \`pulumi up\` to record it and \`${command}\` again: ${verb} uses the connection the last update saved in the stack`
      : `${configSet(SETTINGS.token)}, then run \`${command} --run-program\`: without --run-program, ${verb} uses the provider configuration the last update saved in the stack, not the current config`;
  return { ...pulumiAdvice(), token };
}

/**
 * How to start the local sandbox. `npx service-sandbox` works wherever the package is installed;
 * `npm run sandbox` exists only in a clone of its repository.
 */
export const START_SANDBOX = "`npx service-sandbox` (in a clone of this repository, `npm run sandbox`)";
