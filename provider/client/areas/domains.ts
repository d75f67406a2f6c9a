import { ListEnvelope, StatusOk } from "../../../contract/answers";
import * as Answers from "../../../contract/domains/answers";
import { FinishRegistrationBody, StartRegistrationBody } from "../../../contract/domains/requests";
import type {
  Domain,
  DomainRegistrationStart,
  FinishDomainRegistrationBody,
  StartDomainRegistrationBody,
} from "../../../contract/domains/types";
import { VERSIONED } from "../../../contract/routes";
import { rememberSecret } from "../../context/process";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import { listingOf } from "../pagination";

/**
 * The domain routes of ServiceClient (spec 2.7, 3.2 and 4.3). Registration exists on API 2.0 only, so
 * start, finish and deactivate use the v2 routes whatever the client's version; search follows it.
 */

/** start_registration: a verifier and a register token (secret) to publish before `expires_at`. */
export async function startDomainRegistration(
  api: Requester,
  body: StartDomainRegistrationBody,
): Promise<DomainRegistrationStart> {
  checkRequest(StartRegistrationBody, body, routeInfo("v2StartDomainRegistration"));
  const start = await api.send("v2StartDomainRegistration", {
    body,
    schema: Answers.DomainRegistrationStart,
  });
  rememberSecret(start.register_token);
  return start;
}

/** finish_registration: the service fetches the verification URL and registers the domain. */
export async function finishDomainRegistration(
  api: Requester,
  body: FinishDomainRegistrationBody,
): Promise<Domain> {
  checkRequest(FinishRegistrationBody, body, routeInfo("v2FinishDomainRegistration"));
  return api.send("v2FinishDomainRegistration", { body, schema: Answers.Domain });
}

/** Deactivates a domain; refused (409) while an active webhook targets it. */
export async function deactivateDomain(api: Requester, domainUuid: string): Promise<void> {
  await api.send("v2DeactivateDomain", { params: { domain_uuid: domainUuid }, schema: StatusOk });
}

/** One page of the organization's registered domains, and all of them page after page. */
export const domains = listingOf(VERSIONED.searchDomains, ListEnvelope(Answers.Domain));
