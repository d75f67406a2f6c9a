/**
 * A domain and its registration as the client takes and answers them (spec 2.7, 2.8, 4.3), in the
 * spec's wire names, as plain TypeScript. The request rules are in requests.ts, the answer schemas in
 * answers.ts.
 */
import type { Timestamp, WireOwner } from "../common-types";

/** A registered domain as the service sends it (spec 2.7). */
export interface Domain {
  /** The domain's id, which deactivation takes. */
  domain_uuid: string;
  /** The hostname, bare: no scheme, port or path. */
  domain_name: string;
  /** Who registered it; absent when the service did not say. */
  domain_owner?: WireOwner | undefined;
  /** When it was registered (API 1.4 search). */
  create_timestamp?: Timestamp | undefined;
  /** When it was registered (API 2.0). */
  create_time?: Timestamp | undefined;
  /** Present on finish_registration's answer (API 2.0). */
  verifier?: string | undefined;
}

/** What start_registration answers (spec 2.8). `register_token` is a secret. */
export interface DomainRegistrationStart {
  /** The hostname being registered. */
  domain_name: string;
  /** `https://<domain_name>/service_url_registration/<verifier>`: where to publish the token. */
  url: string;
  /** Names this registration: the URL's last path segment, and what finish_registration takes. */
  verifier: string;
  /** The exact body the URL must serve. A secret: never log it. */
  register_token: string;
  /** ISO date-time after which the link is dead. */
  expires_at: string;
}

/** The body of start_registration. */
export interface StartDomainRegistrationBody {
  /** A bare hostname: no scheme, port, path or trailing slash. */
  domain_name: string;
}

/** The body of finish_registration. */
export interface FinishDomainRegistrationBody {
  /** The hostname given to start_registration. */
  domain_name: string;
  /** The verifier start_registration answered. */
  verifier: string;
}
