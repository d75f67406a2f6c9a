/**
 * What `pulumi preview` runs for a DomainRegistration: check and diff. Neither calls the API, and this
 * module loads nothing the API needs.
 */

import { rememberSecret } from "../context/process";
import { checkInputs } from "../lifecycle/check";
import { COMMON_INPUTS } from "../lifecycle/common-members";
import { changedInputs, exact, type InputKinds } from "../lifecycle/input-comparison";
import type { ResourceProps } from "../lifecycle/methods";
import { DOMAIN_FIELD_ADVICE, RegistrationInputs, RegistrationOutputs } from "./schema";

export async function check(_olds: ResourceProps, news: ResourceProps) {
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  return checkInputs(RegistrationInputs, news, DOMAIN_FIELD_ADVICE);
}

/** A DomainRegistration's inputs by kind. */
const INPUTS: InputKinds = { domainName: exact, ...COMMON_INPUTS };

/** A new hostname needs a new registration; credentials and language change in place. */
export async function diff(_id: string, olds: ResourceProps, news: ResourceProps) {
  const changed = changedInputs(INPUTS, RegistrationOutputs.parse(olds), news);
  return {
    changes: changed.length > 0,
    replaces: changed.filter((key) => key === "domainName"),
    deleteBeforeReplace: false,
  };
}
