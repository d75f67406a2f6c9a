import type { AcceptLanguage, ConnectionInput, Timestamp } from "../../contract/common-types";
import type { Domain } from "../../contract/domains/types";
import { ServiceClient } from "../client/client";
import { perSettings } from "../lifecycle/client-settings";
import * as Listings from "../lifecycle/listings";
import type { Settings } from "../settings/value";
import { ownerOf } from "../webhook/create";
import type { Owner } from "../webhook/resource";

/**
 * The one place where the Domain resources translate the client's wire names of a domain (spec 2.7:
 * `domain_uuid`, `domain_name`, `domain_owner`, `create_time` or `create_timestamp`) into the camelCase
 * their code, outputs and state use. The registration's create maps start_registration's answer straight into the
 * registration's outputs, its own translation.
 */

/** A registered domain as the Domain resources work with it. */
export interface DomainRecord {
  /** The service's `domain_uuid`, which deactivation takes. */
  readonly domainUuid: string;
  /** The hostname, bare. */
  readonly domainName: string;
  /** Who registered it; empty names when the service did not say. */
  readonly owner: Owner;
  /** `create_time` (v2) or `create_timestamp` (v1.4 search); undefined when the answer carried neither. */
  readonly createTime: Timestamp | undefined;
}

/** A domain of the client, as the resources work with it. */
export function domainRecord(domain: Domain): DomainRecord {
  return {
    domainUuid: domain.domain_uuid,
    domainName: domain.domain_name,
    owner: ownerOf(domain.domain_owner),
    createTime: domain.create_time ?? domain.create_timestamp,
  };
}

/** The organization's registered domains (the process's shared listing), as the resources work with them. */
export async function registeredDomains(client: ServiceClient, options: { fresh?: boolean } = {}) {
  return (await Listings.registeredDomains(client, options)).map(domainRecord);
}

/*
 * The one API call a preview makes for a Domain: whether its hostname is already registered by the
 * organization, so that sharing another stack's domain is said before anything is created. Loaded only
 * by a check of a hostname new to its resource, so that an unchanged preview loads no client and calls
 * nothing.
 */

/**
 * A client that gives up quickly: a preview that cannot reach the service goes on without the answer
 * (`pulumi up` asks again, and fails if the service stays unreachable).
 */
const probeClient = perSettings(
  "domain preview probes",
  (options) => new ServiceClient({ ...options, timeoutMs: 5_000, retry: { maxAttempts: 2 } }),
);

/**
 * The registered domain of `inputs.domainName`, asked under the provider's `settings`; undefined when it is
 * not registered or the listing failed.
 */
export async function registeredAlready(
  inputs: {
    readonly domainName: string;
    readonly connection?: ConnectionInput | undefined;
    readonly acceptLanguage?: AcceptLanguage | undefined;
  },
  settings: Settings,
): Promise<DomainRecord | undefined> {
  try {
    const domains = await registeredDomains(probeClient(inputs, settings));
    return domains.find((d) => d.domainName === inputs.domainName);
  } catch {
    return undefined;
  }
}
