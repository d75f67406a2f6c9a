/**
 * Where a domain's verification file lives (spec 4.3, "Domain registration procedure"): the path
 * `/service_url_registration/<verifier>` on the hostname, over HTTPS.
 */
const PREFIX = "/service_url_registration/";

/** The verification URL for a hostname and verifier, as start_registration returns it. */
export function verificationUrl(hostname: string, verifier: string): string {
  return `https://${hostname}${PREFIX}${encodeURIComponent(verifier)}`;
}

/** The object key a publisher writes for a verification URL: its path without the leading slash. */
export function verificationKey(url: string): string {
  return new URL(url).pathname.replace(/^\/+/, "");
}

/** The path pattern a CDN routes to the verification files. */
export const VERIFICATION_PATH_PATTERN = `${PREFIX}*`;
