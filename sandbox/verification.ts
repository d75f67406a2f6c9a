import { outboundUrl } from "./outbound";

export type VerificationCheck = { ok: true } | { ok: false; reason: string };

/**
 * Fetches a domain's verification file the way the service does: one GET, no redirect followed, and a
 * body that must be exactly the register token.
 */
export async function checkVerificationFile(
  url: string,
  registerToken: string,
  hosts: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<VerificationCheck> {
  let response: Response;
  try {
    response = await fetch(outboundUrl(url, hosts), {
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { ok: false, reason: `the verification URL could not be fetched (${(error as Error).message})` };
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return {
      ok: false,
      reason: `the verification URL answered a ${response.status} redirect; redirects are not followed`,
    };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, reason: `the verification URL answered ${response.status}` };
  }
  const body = await response.text();
  if (body !== registerToken) {
    return {
      ok: false,
      reason: `the verification URL's body (${body.length} bytes) is not exactly the register token`,
    };
  }
  return { ok: true };
}
