/**
 * What `pulumi preview` runs for a DomainRegistration: check and diff. Neither calls the API, and this
 * module loads nothing the API needs.
 */

import { rememberSecret } from "../context/process";
import { checkInputs } from "../lifecycle-kit/check";
import { commonMembersChanged } from "../lifecycle-kit/common-members";
import { containsUnknown } from "../lifecycle-kit/unknowns";
import type { ResourceProps } from "../resource-lifecycle";
import { DOMAIN_FIELD_ADVICE, RegistrationInputs, RegistrationOutputs } from "./schema";

export async function check(_olds: ResourceProps, news: ResourceProps) {
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  return checkInputs(RegistrationInputs, news, DOMAIN_FIELD_ADVICE);
}

/** A new hostname needs a new registration; credentials and language change in place. */
export async function diff(_id: string, olds: ResourceProps, news: ResourceProps) {
  const old = RegistrationOutputs.parse(olds);
  const replaces =
    containsUnknown(news.domainName) || news.domainName !== old.domainName ? ["domainName"] : [];
  return {
    changes: replaces.length > 0 || commonMembersChanged(old, news),
    replaces,
    deleteBeforeReplace: false,
  };
}
