/**
 * Where an error's advice sends the reader depends on where the error surfaced. A plain ServiceClient is
 * configured through its options; a Webhook or Domain through Pulumi config or its `connection` input.
 * Telling a script author to run `pulumi config set` (or a stack's owner to pass a client option) sends
 * them to a setting their code never reads.
 */

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

const ADVICE: Readonly<Record<AdviceContext, SettingAdvice>> = {
  client: {
    token: "the client's `token` option (or SERVICE_API_TOKEN)",
    baseUrl: "the client's `baseUrl` option (or SERVICE_BASE_URL)",
    retryBudget: "the client's `retry.maxElapsedMs` option (or SERVICE_RETRY_BUDGET_SECONDS)",
    timeout: "the client's `timeoutMs` option (or SERVICE_TIMEOUT_SECONDS)",
    settings: "the client's options (or the SERVICE_* environment variables)",
  },
  pulumi: {
    token: "`pulumi config set --secret service:token <token>` (or the resource's `connection.token`)",
    baseUrl: "`pulumi config set service:baseUrl <url>` (or the resource's `connection.baseUrl`)",
    retryBudget: "`pulumi config set service:retryBudgetSeconds <seconds>`",
    timeout: "SERVICE_TIMEOUT_SECONDS in the environment of the `pulumi` command",
    settings:
      "the stack config (`pulumi config`, keys service:*), the resource's `connection`, or the SERVICE_* environment variables",
  },
};

/** The advice for `context`; a plain client's when none is given. */
export function adviceFor(context: AdviceContext = "client"): SettingAdvice {
  return ADVICE[context];
}

/**
 * How to start the local sandbox. `npx service-sandbox` works wherever the package is installed;
 * `npm run sandbox` exists only in a clone of its repository.
 */
export const START_SANDBOX = "`npx service-sandbox` (in a clone of this repository, `npm run sandbox`)";
