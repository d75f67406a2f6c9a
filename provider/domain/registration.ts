/** What `pulumi up`, `refresh` and `destroy` run for a DomainRegistration (start_registration). */

import { verificationKey } from "../../contract/domains/verification";
import { AmbiguousRequestError } from "../errors/transport";
import { clientFor } from "../lifecycle/clients";
import { withCommonMembers } from "../lifecycle/common-members";
import type { ResourceProps } from "../lifecycle/methods";
import { type Refreshed, refreshAnswer } from "../lifecycle/refresh";
import { registrationImportError, startUnconfirmedError } from "./messages";
import { RegistrationInputs, RegistrationOutputs } from "./schema";
import { noteRegisteredAtStart } from "./sharing";
import { registeredDomains } from "./wire";

/**
 * start_registration: a new verifier and register token, valid until expiresAt. The answer's wire names
 * map onto the registration's outputs here, its one translation. A hostname the organization had already
 * registered before this start is noted for the verification that follows in this run: this stack did
 * not register it.
 */
export async function create(props: ResourceProps): Promise<{ id: string; outs: RegistrationOutputs }> {
  const inputs = RegistrationInputs.parse(props);
  const client = clientFor(inputs);
  // The check just before listed the domains in this process: the listing is usually cached.
  const before = (await registeredDomains(client)).find((d) => d.domainName === inputs.domainName);
  let start: Awaited<ReturnType<ReturnType<typeof clientFor>["domains"]["startRegistration"]>>;
  try {
    start = await client.domains.startRegistration({ domain_name: inputs.domainName });
  } catch (error) {
    if (error instanceof AmbiguousRequestError) throw startUnconfirmedError(inputs.domainName, error);
    throw error;
  }
  if (before) noteRegisteredAtStart(start.verifier);
  const outs: RegistrationOutputs = withCommonMembers(
    {
      domainName: start.domain_name,
      url: start.url,
      verifier: start.verifier,
      // Derived from the URL the service returned, so a publisher writes exactly where it will look.
      key: verificationKey(start.url),
      registerToken: start.register_token,
      expiresAt: start.expires_at,
    },
    inputs,
  );
  return { id: start.verifier, outs };
}

/**
 * A registration whose link expired before the domain was registered is reported gone, so that the next
 * `pulumi up` starts a new one instead of wedging on a dead verifier. Once the domain is registered the
 * registration stays, expired or not.
 */
export async function read(id: string, props: ResourceProps): Promise<Refreshed | Record<string, never>> {
  // With no state, this is `pulumi import`, which a registration cannot support.
  if (props.domainName === undefined) throw registrationImportError(id);
  const old = RegistrationOutputs.parse(props);
  const client = clientFor(old);
  const registered = (await registeredDomains(client)).some((d) => d.domainName === old.domainName);
  if (!registered && Date.parse(old.expiresAt) <= client.serverNow()) return {};
  return refreshAnswer(id, props, old, () => withCommonMembers({ domainName: old.domainName }, old));
}

export async function update(_id: string, olds: ResourceProps, news: ResourceProps) {
  return { outs: withCommonMembers(RegistrationOutputs.parse(olds), news) };
}

/** A registration has nothing to remove on the service: an unused link expires by itself. */
export async function remove(_id: string, _props: ResourceProps): Promise<void> {}
