import { resolveHost } from "../../contract/domains/hostname-overrides";
import { checkVerificationFile, type Observation } from "../../contract/domains/verification-check";

/** Where and how long the Domain's GET of its verification URL may go. */
export interface VerificationFetchOptions {
  /** Hostname to origin, for hostnames that only exist locally (service:hostOverrides). */
  readonly hosts?: Readonly<Record<string, string>>;
  /** How long the GET may take before the URL counts as unreachable; 5 s when omitted. */
  readonly timeoutMs?: number;
}

/**
 * The Domain's look at its verification URL from this process, before it calls finish: the service's
 * check (contract/domains/verification-check.ts) over fetch, sent to the stand-in origin when `hosts`
 * has one for the hostname.
 */
export function fetchVerificationFile(
  url: string,
  registerToken: string,
  options: VerificationFetchOptions = {},
): Promise<Observation> {
  return checkVerificationFile(url, registerToken, async (target, init) => {
    try {
      return await fetch(resolveHost(target, options.hosts ?? {}), {
        ...init,
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
    } catch (error) {
      throw withCause(error);
    }
  });
}

/**
 * fetch rejects with only "fetch failed" and keeps the network's reason (a refused connection, an unknown
 * host) in `cause`: the message a user reads carries both.
 */
function withCause(error: unknown): unknown {
  if (!(error instanceof Error) || !(error.cause instanceof Error)) return error;
  return new Error(`${error.message}: ${error.cause.message}`, { cause: error.cause });
}
