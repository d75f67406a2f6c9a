/**
 * The one API call a preview makes for a Domain: whether its hostname is already registered by the
 * organization, so that sharing another stack's domain is said before anything is created. Loaded only
 * by a check of a hostname new to its resource, so that an unchanged preview loads no client and calls
 * nothing.
 */
import { ServiceClient } from "../client/client";
import { perSettings } from "../lifecycle/client-settings";
import type { RegistrationInputs } from "./schema";
import { type DomainRecord, registeredDomains } from "./wire";

/**
 * A client that gives up quickly: a preview that cannot reach the service goes on without the answer
 * (`pulumi up` asks again, and fails if the service stays unreachable).
 */
const probeClient = perSettings(
  "domain preview probes",
  (options) => new ServiceClient({ ...options, timeoutMs: 5_000, retry: { maxAttempts: 2 } }),
);

/** The registered domain of `inputs.domainName`, undefined when it is not registered or the listing failed. */
export async function registeredAlready(inputs: RegistrationInputs): Promise<DomainRecord | undefined> {
  try {
    const domains = await registeredDomains(probeClient(inputs));
    return domains.find((d) => d.domainName === inputs.domainName);
  } catch {
    return undefined;
  }
}
