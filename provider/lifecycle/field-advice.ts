/**
 * The next steps for the inputs every resource shares, in the words of a check failure (see check.ts):
 * what to give instead, or what leaving the input out does.
 */
export const COMMON_NEXT_STEPS = {
  connection:
    "give connection: { token, baseUrl }, with the token as a secret, or leave connection out to use the stack's service:token and service:baseUrl",
  acceptLanguage: "give en or ja, or leave acceptLanguage out for en",
} as const;

/** The shared inputs whose given values a failure may quote: neither is a secret. */
export const COMMON_QUOTED = ["acceptLanguage"] as const;
