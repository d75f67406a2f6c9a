import { z } from "zod";
import { controlCharacterProblem, safeString } from "../control-characters";

/**
 * The request rules of the domain routes (spec 4.3): a bare hostname, and the bodies of start and finish
 * registration. The sandbox answers 400 when a body breaks them; the client refuses to send it, and the
 * Domain resources check them at preview time.
 */

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A last label that is a number in any spelling the URL standard reads (decimal, octal with a leading 0,
 * hex with 0x, even a bare 0x): a URL parser then reads the whole host as an IPv4 address, so that
 * `0x7f.0x0.0x0.0x1`, `2130706433` and `0x0` all mean an IP address. No registered domain ends in one.
 */
const NUMERIC_LABEL = /(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)$/i;

/** Why `host` is an IP literal (IPv4 in any spelling, or a bracketed IPv6), or undefined when it is not. */
function ipLiteralProblem(host: string): string | undefined {
  if (host.startsWith("[") || NUMERIC_LABEL.test(host)) {
    return "must be a registered domain name, not an IP address (in any spelling: a last label that is a number, decimal or 0x hex, makes the whole host an IPv4 address)";
  }
  return undefined;
}

/** A bare hostname: no scheme, port, path or trailing dot or slash; at least two labels; not an IP address. */
export function hostnameProblem(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  const control = controlCharacterProblem(value);
  if (control) return control;
  const ip = ipLiteralProblem(value);
  if (ip) return ip;
  if (/[/:?#@\s]/.test(value)) return "must be a bare hostname, without scheme, port, path or trailing slash";
  if (value !== value.toLowerCase()) return "must be lower case";
  if (value.length > 253) return "must be at most 253 characters";
  const labels = value.split(".");
  if (labels.length < 2)
    return "must have at least two labels: give the full hostname, such as hooks.example.com";
  if (!labels.every((l) => HOST_LABEL.test(l))) {
    return "must consist of labels of letters, digits and inner hyphens, separated by single dots";
  }
  return undefined;
}

export const Hostname = z.string().superRefine((value, ctx) => {
  const problem = hostnameProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** The body of start_registration (spec 4.3): a bare hostname; other members are ignored. */
export const StartRegistrationBody = z.looseObject({ domain_name: Hostname });

/** The body of finish_registration (spec 4.3): the hostname and the verifier start_registration answered. */
export const FinishRegistrationBody = z.looseObject({
  domain_name: Hostname,
  verifier: safeString().min(1, "must not be empty"),
});
