import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { hostnameOf, isLoopback } from "../contract/loopback";
import { ADMIN_TOKEN_HEADER, type AdminAccess } from "./admin-token";
import type { SandboxEnv } from "./context";
import { HttpError } from "./http-errors";

/**
 * Content types a web page may POST cross-site without asking the server first (a "simple" request).
 * The admin routes take JSON, so none of them has a reason to arrive with one.
 */
const SIMPLE_CONTENT_TYPES = new Set([
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
]);

/** `/_sandbox` and everything under it, however the path is spelled (case, doubled slashes). */
const ADMIN_PATH = /^\/+_sandbox(?:\/|$)/i;

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compared through digests, so that the comparison takes the same time whatever the lengths. */
const sameToken = (given: string | undefined, expected: string) =>
  given !== undefined && timingSafeEqual(digest(given), digest(expected));

const refuse = (status: number, code: string, message: string) => new HttpError(status, code, message);

function checkToken(c: Context<SandboxEnv>, access: AdminAccess): boolean {
  if (access.adminToken === undefined) return false;
  if (!sameToken(c.req.header(ADMIN_TOKEN_HEADER), access.adminToken)) {
    throw refuse(
      401,
      "admin_token_required",
      `the admin routes need the admin token in the ${ADMIN_TOKEN_HEADER} header: use the one the sandbox printed at start, or the one set with the adminToken option or SERVICE_SANDBOX_ADMIN_TOKEN`,
    );
  }
  return true;
}

function checkHost(host: string | undefined, servedHost: string | undefined): void {
  const hostname = host === undefined ? undefined : hostnameOf(host);
  if (isLoopback(hostname) || (hostname !== undefined && hostname === servedHost)) return;
  const served = servedHost === undefined ? "" : ` or ${servedHost}`;
  throw refuse(
    403,
    "host_refused",
    `the admin routes answer only requests addressed to a loopback host (localhost, 127.0.0.1, [::1])${served}, not to ${host === undefined ? "no Host" : JSON.stringify(host)}: open the sandbox by its loopback address, or start it with an admin token to reach it from elsewhere`,
  );
}

/** The host:port of an Origin header, or undefined for `null` and anything that is not an origin. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host || undefined;
  } catch {
    return undefined;
  }
}

function checkSameSite(c: Context<SandboxEnv>, host: string | undefined): void {
  const origin = c.req.header("origin");
  if (origin !== undefined && originHost(origin) !== host?.toLowerCase()) {
    throw refuse(
      403,
      "cross_site_refused",
      `the admin routes refuse requests from a web page of another origin (${JSON.stringify(origin)}): call them from a script or a tool, not from a browser page`,
    );
  }
  const mediaType = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && mediaType && SIMPLE_CONTENT_TYPES.has(mediaType)) {
    throw refuse(
      403,
      "cross_site_refused",
      `the admin routes refuse a ${c.req.method} with Content-Type ${mediaType}, which a web page of any site can send: send Content-Type: application/json`,
    );
  }
}

/**
 * Keeps the admin routes (`/_sandbox/*`) to this machine's own tools: the Host must be a loopback name or
 * address (or the host the sandbox was told to serve), which defeats DNS rebinding; a foreign Origin or a
 * "simple" cross-site content type is refused; and with an admin token (required when the sandbox listens
 * beyond loopback), every request must carry it, in which case any Host is accepted. The image URLs are
 * left alone: they are signed links that item answers hand out, fetched from wherever the API was. The
 * stand-in webhook host (`/_sandbox/origin/*`) needs no token, since the sandbox calls it, but stays
 * loopback-only.
 */
export function adminGuard(access: AdminAccess): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (!ADMIN_PATH.test(c.req.path) || c.req.path.startsWith("/_sandbox/images/")) return next();
    const host = c.req.header("host");
    // The stand-in webhook host is called by the sandbox itself (deliveries, verification fetches), which
    // holds no admin token: it is kept to loopback instead.
    const standIn = c.req.path.startsWith("/_sandbox/origin/");
    if (standIn || !checkToken(c, access)) checkHost(host, access.servedHost);
    checkSameSite(c, host);
    return next();
  };
}
