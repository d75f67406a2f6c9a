/**
 * What `pulumi preview` runs for a DomainRegistration: check and diff. Neither calls the API, and this
 * module loads nothing the API needs.
 */

import { rememberSecret } from "../context/process";
import { checkInputs } from "../lifecycle/check";
import { COMMON_INPUTS } from "../lifecycle/common-members";
import { changedInputs, exact, type InputKinds } from "../lifecycle/input-comparison";
import type { CheckContext, ResourceProps } from "../lifecycle/methods";
import { containsUnknown } from "../lifecycle/unknowns";
import { alreadyRegisteredNotice } from "./messages";
import { markTold, tell } from "./notices";
import { DOMAIN_FIELD_ADVICE, RegistrationInputs, RegistrationOutputs } from "./schema";
import { sharedTopic } from "./sharing";

/**
 * Validates the hostname. For a hostname new to this resource (a new Domain, or another hostname), it
 * also asks the service once whether the organization already registered it: if so, the Domain will share
 * it, and says so now, at preview, before anything is created. A Domain that opts in with `adopt` has no
 * registration, so it is never told. Unknown or invalid inputs, and a listing that fails, skip the question.
 */
export async function check(olds: ResourceProps, news: ResourceProps, context: CheckContext = {}) {
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  const { withSettingsFailure } = await import("../lifecycle/client-settings.js");
  const result = withSettingsFailure(
    checkInputs<RegistrationInputs>(RegistrationInputs, news, DOMAIN_FIELD_ADVICE),
  );
  const warnings: { urn: string; message: string }[] = [];
  if (result.failures.length === 0 && olds.domainName !== news.domainName && !containsUnknown(news)) {
    const { registeredAlready } = await import("./registration-probe.js");
    const found = await registeredAlready(result.inputs);
    if (found) {
      const message = alreadyRegisteredNotice(
        found.domainName,
        found.domainUuid,
        found.owner.organization,
        true,
      );
      const topic = sharedTopic(found.domainName);
      // The provider plugin shows a warning on the resource; the dynamic-provider host cannot.
      if (context.urn === undefined) tell(message, topic);
      else {
        markTold(topic);
        warnings.push({ urn: context.urn, message });
      }
    }
  }
  return { ...result, warnings };
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
