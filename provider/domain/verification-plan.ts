/**
 * What `pulumi preview` runs for a DomainVerification: check and diff. Neither calls the API, and this
 * module loads nothing the API needs.
 */

import { rememberSecret } from "../context/process";
import { type CheckFailure, checkFailure, checkInputs } from "../lifecycle-kit/check";
import { commonMembersChanged } from "../lifecycle-kit/common-members";
import { containsUnknown } from "../lifecycle-kit/unknowns";
import type { ResourceProps } from "../resource-lifecycle";
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
  return result;
}

const REPLACING = ["domainName", "adopt", "verifier"] as const;

/** Another hostname, verifier or adopt mode is another verification; `timeout` and credentials change in place. */
export async function diff(_id: string, olds: ResourceProps, news: ResourceProps) {
  const old = VerificationOutputs.parse(olds);
  const replaces = REPLACING.filter(
    (key) => containsUnknown(news[key]) || (news[key] ?? old[key]) !== old[key],
  );
  const changes =
    replaces.length > 0 || commonMembersChanged(old, news) || (news.timeout ?? old.timeout) !== old.timeout;
  return { changes, replaces: [...replaces], deleteBeforeReplace: false };
}
