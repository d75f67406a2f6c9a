/** fast-check generators of the API's values that several property tests share. */
import * as fc from "fast-check";
import { API_VERSIONS } from "../../contract/versions";

/** Either API version. */
export const version = fc.constantFrom(...API_VERSIONS);

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
/** A well-formed lower-case hostname of two to four labels. */
export const hostname = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([labels, tld]) => [...labels, tld].join("."));
/** A path of unreserved characters and percent escapes: nothing a v2 endpoint refuses. */
export const path = fc
  .array(fc.stringMatching(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2}){1,10}$/), { maxLength: 4 })
  .map((segments) => segments.map((s) => `/${s}`).join(""));
const port = fc.option(
  fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
  { nil: "" },
);
/** An https URL on a well-formed host, with a plain path: nothing either version refuses. */
export const endpoint = fc.tuple(hostname, port, path).map(([host, p, rest]) => `https://${host}${p}${rest}`);
