import { z } from "zod";
import type { RouteName } from "../../provider/api/routes";
import { Hostname } from "../../provider/api/rules";
import { type ApiHandler, parseWith } from "../context";
import { HttpError } from "../http-errors";
import { listEnvelope } from "../pagination";
import { renderDomain, timestamp } from "../render";
import { checkVerificationFile } from "../verification";

const StartBody = z.looseObject({ domain_name: Hostname });
const FinishBody = z.looseObject({ domain_name: Hostname, verifier: z.string().min(1, "must not be empty") });

const start: ApiHandler = (call, { store }) => {
  const { domain_name } = parseWith(StartBody, call.body);
  const registration = store.startRegistration(call.token, domain_name);
  return {
    domain_name,
    url: `https://${domain_name}/service_url_registration/${registration.verifier}`,
    verifier: registration.verifier,
    register_token: registration.registerToken,
    expires_at: new Date(registration.expiresAt).toISOString(),
  };
};

const finish: ApiHandler = async (call, { store, hosts, settings }) => {
  const { domain_name, verifier } = parseWith(FinishBody, call.body);
  const registered = store.registeredDomain(call.token.organization, domain_name);
  const domain =
    registered ??
    (await (async () => {
      const registration = store.pendingFor(call.token, domain_name, verifier);
      const url = `https://${domain_name}/service_url_registration/${verifier}`;
      const check = await checkVerificationFile(
        url,
        registration.registerToken,
        hosts,
        settings.outboundTimeoutMs,
      );
      if (!check.ok) {
        store.recordFailedFinish(call.token.organization, domain_name);
        throw new HttpError(
          400,
          "verification_failed",
          `domain check failed for ${domain_name}: ${check.reason}`,
        );
      }
      return store.completeRegistration(call.token, registration);
    })());
  return {
    create_time: timestamp(domain.createdAt),
    domain_name: domain.name,
    domain_owner: { organization: { name: domain.organization }, user: { username: domain.user } },
    domain_uuid: domain.uuid,
    verifier: domain.verifier,
  };
};

const deactivate: ApiHandler = (call, { store }) => {
  store.deactivateDomain(call.token, call.params.domain_uuid!);
  return { status: "ok" };
};

const search: ApiHandler = (call, { store }) =>
  listEnvelope(
    call,
    store.activeDomains(call.token.organization).sort((a, b) => a.createdAt - b.createdAt),
    (d) => renderDomain(d, call.version),
  );

export const domainHandlers = {
  v2StartDomainRegistration: start,
  v2FinishDomainRegistration: finish,
  v2DeactivateDomain: deactivate,
  v1SearchDomains: search,
  v2SearchDomains: search,
} satisfies Partial<Record<RouteName, ApiHandler>>;
