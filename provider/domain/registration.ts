import { checkInputs } from "../runtime/check";
import { commonMembersChanged, withCommonMembers } from "../runtime/common-members";
import { clientFor } from "../runtime/credentials";
import { registeredDomains } from "../runtime/listings";
import { containsUnknown } from "../runtime/unknowns";
import { RegistrationInputs, RegistrationOutputs } from "./schema";

type Props = Record<string, unknown>;

export async function check(_olds: Props, news: Props) {
  return checkInputs(RegistrationInputs, news);
}

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

/** start_registration: a new verifier and register token, valid until expiresAt. */
export async function create(props: Props): Promise<{ id: string; outs: RegistrationOutputs }> {
  const inputs = RegistrationInputs.parse(props);
  const start = await clientFor(inputs).startDomainRegistration(inputs.domainName);
  const outs: RegistrationOutputs = withCommonMembers(
    {
      domainName: start.domainName,
      url: start.url,
      verifier: start.verifier,
      key: `service_url_registration/${start.verifier}`,
      registerToken: start.registerToken,
      expiresAt: start.expiresAt,
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
export async function read(id: string, props: Props) {
  const old = RegistrationOutputs.parse(props);
  const registered = (await registeredDomains(clientFor(old))).some((d) => d.domainName === old.domainName);
  if (!registered && Date.parse(old.expiresAt) <= Date.now()) return {};
  const inputs = withCommonMembers({ domainName: old.domainName }, old);
  return { id, props: old, inputs };
}

export async function update(_id: string, olds: Props, news: Props) {
  return { outs: withCommonMembers(RegistrationOutputs.parse(olds), news) };
}

/** A registration has nothing to remove on the service. */
export async function remove(): Promise<void> {}
