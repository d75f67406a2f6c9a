/**
 * What `pulumi preview` runs for a DomainVerification: check and diff. Neither calls the API, and this
 * module loads nothing the API needs.
 */

import { rememberSecret } from "../context/process";
import { type CheckFailure, checkFailure, checkInputs } from "../lifecycle/check";
import { COMMON_INPUTS } from "../lifecycle/common-members";
import { changedInputs, type InputKinds, recordedUnlessGiven } from "../lifecycle/input-comparison";
import type { ResourceProps } from "../lifecycle/methods";
import { DOMAIN_FIELD_ADVICE, VERIFY_MEMBERS, VerificationInputs, VerificationOutputs } from "./schema";

export async function check(
  _olds: ResourceProps,
  news: ResourceProps,
): Promise<{ inputs: ResourceProps; failures: CheckFailure[] }> {
  rememberSecret(news.registerToken);
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  const result = checkInputs(VerificationInputs, news, DOMAIN_FIELD_ADVICE);
  if (news.adopt !== true) {
    for (const key of VERIFY_MEMBERS) {
      if (news[key] === undefined)
        result.failures.push(
          checkFailure(key, "is required unless adopt is true", undefined, DOMAIN_FIELD_ADVICE),
        );
    }
  }
  const { withSettingsFailure } = await import("../lifecycle/client-settings.js");
  return withSettingsFailure(result);
}

/** A DomainVerification's inputs by kind: one left out keeps its recorded value. */
const INPUTS: InputKinds = {
  domainName: recordedUnlessGiven,
  adopt: recordedUnlessGiven,
  verifier: recordedUnlessGiven,
  timeout: recordedUnlessGiven,
  ...COMMON_INPUTS,
};
const REPLACING: readonly string[] = ["domainName", "adopt", "verifier"];

/** Another hostname, verifier or adopt mode is another verification; `timeout` and credentials change in place. */
export async function diff(_id: string, olds: ResourceProps, news: ResourceProps) {
  const changed = changedInputs(INPUTS, VerificationOutputs.parse(olds), news);
  return {
    changes: changed.length > 0,
    replaces: changed.filter((key) => REPLACING.includes(key)),
    deleteBeforeReplace: false,
  };
}
