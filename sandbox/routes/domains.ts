import { resolveHost } from "../../contract/domains/hostname-overrides";
import {
  FinishRegistrationBody as FinishBody,
  StartRegistrationBody as StartBody,
} from "../../contract/domains/requests";
import { verificationUrl } from "../../contract/domains/verification";
import { checkVerificationFile, describeObservation } from "../../contract/domains/verification-check";
import type { RouteName } from "../../provider/client/index";
import { type ApiCall, type ApiHandler, parseWith, type SandboxContext } from "../context";
import { HttpError, invalid } from "../http-errors";
import { listEnvelope } from "../pagination";
import { renderDomain } from "../render";
import type { DomainRecord } from "../store";

const start: ApiHandler = (call, { store }) => {
  const { domain_name } = parseWith(StartBody, call.body);
  const registration = store.startRegistration(call.token, domain_name);
  return {
    domain_name,
    url: verificationUrl(domain_name, registration.verifier),
    verifier: registration.verifier,
    register_token: registration.registerToken,
    expires_at: new Date(registration.expiresAt).toISOString(),
  };
};

/** A finish whose verifier names no live registration: a failed attempt, counted towards the 429. */
function refuseVerifier(call: ApiCall, ctx: SandboxContext, domainName: string, registered: boolean): never {
  ctx.store.recordFailedFinish(call.token.organization, domainName);
  const message = registered
    ? `domain ${domainName} is already registered, and this verifier is not the one that registered it; send that verifier, or start registration again for a new one`
    : `domain ${domainName} is not registered and has no pending verification with this verifier; start registration and send the verifier it returns`;
  throw invalid(message, [{ field: "verifier", message: "does not match a registration of this domain" }]);
}

/**
 * Finishes a registration (spec 3.2). A registered domain answers itself again for the verifier that
 * registered it or for one from a fresh start whose file is served; any other verifier fails.
 */
const finish: ApiHandler = async (call, ctx) => {
  const { store, hosts, settings } = ctx;
  const { domain_name, verifier } = parseWith(FinishBody, call.body);
  const organization = call.token.organization;
  store.assertFinishAllowed(organization, domain_name);
  const registered = store.registeredDomain(organization, domain_name);
  let domain: DomainRecord;
  if (registered?.verifier === verifier) {
    domain = registered;
  } else {
    const registration =
      store.pendingRegistration(organization, domain_name, verifier) ??
      refuseVerifier(call, ctx, domain_name, registered !== undefined);
    // The same check the provider polls with, so the two cannot disagree on what "served" means.
    const seen = await checkVerificationFile(
      verificationUrl(domain_name, verifier),
      registration.registerToken,
      (url, init) =>
        fetch(resolveHost(url, hosts), { ...init, signal: AbortSignal.timeout(settings.outboundTimeoutMs) }),
    );
    if (seen.kind !== "ok") {
      store.recordFailedFinish(organization, domain_name);
      throw new HttpError(
        400,
        "verification_failed",
        `domain check failed for ${domain_name}: ${describeObservation(seen)}; serve exactly the register token there, then finish again`,
      );
    }
    domain = store.completeRegistration(call.token, registration);
  }
  return { ...renderDomain(domain, call.version, call.language), verifier: domain.verifier };
};

const deactivate: ApiHandler = (call, { store }) => {
  store.deactivateDomain(call.token, call.params.domain_uuid!);
  return { status: "ok" };
};

const search: ApiHandler = (call, { store }) =>
  listEnvelope(call, store.activeDomains(call.token.organization), (d) =>
    renderDomain(d, call.version, call.language),
  );

/** The handlers of the domain routes. */
export const domainHandlers = {
  v2StartDomainRegistration: start,
  v2FinishDomainRegistration: finish,
  v2DeactivateDomain: deactivate,
  v1SearchDomains: search,
  v2SearchDomains: search,
} satisfies Partial<Record<RouteName, ApiHandler>>;
