/**
 * The check the service makes of a domain's verification URL before it finishes a registration (spec
 * 4.3): one GET that follows no redirect, and a body that must be exactly the register token. The Domain
 * polls with it before calling finish, and the sandbox runs it inside finish, so the two cannot disagree
 * on what "served" means. The GET itself is the caller's: its network, its stand-in origins, its timeout.
 */

/** What the verification URL served, described without ever repeating the body. */
export type Observation =
  | { readonly kind: "ok" }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "redirect"; readonly status: number; readonly location: string | null }
  | { readonly kind: "mismatch"; readonly bytes: number }
  | { readonly kind: "unreachable"; readonly message: string };

/** An observation in words, for the messages of the Domain and of the sandbox's finish. */
export function describeObservation(o: Observation): string {
  switch (o.kind) {
    case "ok":
      return "the URL served exactly the register token";
    case "status":
      return `the URL answered ${o.status}`;
    case "redirect":
      return `the URL answered a ${o.status} redirect${o.location ? ` to ${o.location}` : ""}, and the service follows no redirect`;
    case "mismatch":
      return `the URL answered 200 with a ${o.bytes}-byte body that is not exactly the register token`;
    case "unreachable":
      return `the URL could not be fetched (${o.message})`;
  }
}

/** Sends one GET of `url` as `init` says and resolves to its answer, or rejects when there is none. */
export type VerificationGet = (url: string, init: RequestInit) => Promise<Response>;

/** One look at the verification URL, the way the service looks, through the caller's `get`. */
export async function checkVerificationFile(
  url: string,
  registerToken: string,
  get: VerificationGet,
): Promise<Observation> {
  let response: Response;
  try {
    response = await get(url, { redirect: "manual", headers: { "cache-control": "no-cache" } });
  } catch (error) {
    return { kind: "unreachable", message: (error as Error).message };
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return { kind: "redirect", status: response.status, location: response.headers.get("location") };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { kind: "status", status: response.status };
  }
  const body = await response.text();
  return body === registerToken ? { kind: "ok" } : { kind: "mismatch", bytes: Buffer.byteLength(body) };
}
