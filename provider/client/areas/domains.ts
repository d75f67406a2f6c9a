import { FinishRegistrationBody, StartRegistrationBody } from "../../../contract/domains/requests";
import * as Responses from "../../../contract/domains/responses";
import type {
  Domain,
  DomainRegistrationStart,
  FinishDomainRegistrationBody,
  StartDomainRegistrationBody,
} from "../../../contract/domains/types";
import { ListEnvelope, StatusOk } from "../../../contract/responses";
import { hooks, readOnly, v1, v2 } from "../../../contract/routes";
import { rememberSecret } from "../../context/process";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import type { Page, PageRequest } from "../pages";
import { listingOf } from "../pagination";
import { request } from "../request";

/** The domain routes (spec 2.7, 3.2 and 4.3); the sandbox mounts its handlers on the same ones. */
export const DOMAIN_ROUTES = {
  v1SearchDomains: v1("POST", "/v1/search/domains", { ...hooks, ...readOnly }),
  v2SearchDomains: v2("POST", "/v2/search/domains", { ...hooks, ...readOnly }),
  v2StartDomainRegistration: v2("POST", "/v2/domains/start_registration", hooks),
  v2FinishDomainRegistration: v2("POST", "/v2/domains/finish_registration", hooks),
  v2DeactivateDomain: v2("POST", "/v2/domains/{domain_uuid}/deactivate", hooks),
} as const;

const R = DOMAIN_ROUTES;
const listing = listingOf(
  { "1.4": R.v1SearchDomains, "2.0": R.v2SearchDomains },
  ListEnvelope(Responses.Domain),
);

/**
 * The organization's webhook domains, as `client.domains`. Registration exists on API 2.0 only, so
 * start, finish and deactivate use the v2 routes whatever the client's version; a listing follows it.
 */
export class Domains {
  /** @param api the client's pipeline, which every method sends through */
  constructor(private readonly api: Requester) {}

  /**
   * start_registration: a verifier and a register token (secret) to publish before `expires_at`.
   *
   * @example const { url, register_token } = await client.domains.startRegistration({ domain_name: "hooks.example.com" });
   */
  async startRegistration(body: StartDomainRegistrationBody): Promise<DomainRegistrationStart> {
    checkRequest(StartRegistrationBody, body, routeInfo(R.v2StartDomainRegistration));
    const start = await request(this.api, R.v2StartDomainRegistration, {
      body,
      schema: Responses.DomainRegistrationStart,
    });
    rememberSecret(start.register_token);
    return start;
  }

  /** finish_registration: the service fetches the verification URL and registers the domain. */
  async finishRegistration(body: FinishDomainRegistrationBody): Promise<Domain> {
    checkRequest(FinishRegistrationBody, body, routeInfo(R.v2FinishDomainRegistration));
    return request(this.api, R.v2FinishDomainRegistration, { body, schema: Responses.Domain });
  }

  /** Deactivates a domain; refused (409) while an active webhook targets it. */
  async deactivate(domainUuid: string): Promise<void> {
    await request(this.api, R.v2DeactivateDomain, { params: { domain_uuid: domainUuid }, schema: StatusOk });
  }

  /** One page of the organization's registered domains: `{items, item_count, next_cursor}`. */
  list(page: PageRequest = {}): Promise<Page<Domain>> {
    return listing.list(this.api, page);
  }

  /** Every registered domain of the organization, page after page. */
  iterate(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Domain> {
    return listing.iterate(this.api, page);
  }
}
