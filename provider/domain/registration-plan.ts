import { rememberSecret } from "../context/process";
import { checkInputs } from "../runtime/check";
import { commonMembersChanged } from "../runtime/common-members";
import { containsUnknown } from "../runtime/unknowns";
import { RegistrationInputs, RegistrationOutputs } from "./schema";

/**
 * What `pulumi preview` runs for a DomainRegistration: check and diff. Neither calls the API, and this
 * module loads nothing the API needs.
 */
type Props = Record<string, unknown>;

export async function check(_olds: Props, news: Props) {
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  return checkInputs(RegistrationInputs, news);
}

/** A new hostname needs a new registration; credentials and language change in place. */
export async function diff(_id: string, olds: Props, news: Props) {
  const old = RegistrationOutputs.parse(olds);
  const replaces =
    containsUnknown(news.domainName) || news.domainName !== old.domainName ? ["domainName"] : [];
  return {
    changes: replaces.length > 0 || commonMembersChanged(old, news),
    replaces,
    deleteBeforeReplace: false,
  };
}
