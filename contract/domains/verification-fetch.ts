import { resolveHost } from "./hosts";

/**
 * One GET of a domain's verification URL, made the way the service makes it: no redirect followed, and a
 * body that must be exactly the register token. The provider polls with it before calling finish, and the
 * sandbox runs it inside finish, so the two cannot disagree on what "served" means.
 */

/** What the verification URL served, described without ever repeating the body. */
export type Observation =
  | { readonly kind: "ok" }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "redirect"; readonly status: number; readonly location: string | null }
  | { readonly kind: "mismatch"; readonly bytes: number }
  | { readonly kind: "unreachable"; readonly message: string };

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

export interface VerificationFetchOptions {
  /** Hostname to origin, for hostnames that only exist locally. */
  readonly hosts?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export async function fetchVerificationFile(
  url: string,
  registerToken: string,
  options: VerificationFetchOptions = {},
): Promise<Observation> {
  let response: Response;
  try {
    response = await fetch(resolveHost(url, options.hosts ?? {}), {
      redirect: "manual",
      headers: { "cache-control": "no-cache" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
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
