import { z } from "zod";
import { exactly } from "../contract/common-types";
import { ROUTES } from "../provider/client/index";
import type { FaultSpec as FaultShape } from "./public-types";

/** A fault to arm: which requests it hits, how many times, and what it does to them. */
export const FaultSpec = exactly<FaultShape>()(
  z
    .object({
      method: z.enum(["GET", "POST"]),
      /** An exact path, or a prefix ending in `*`. */
      path: z.string().startsWith("/", "must start with /"),
      count: z.number().int().positive().default(1),
      /** Answer with this status instead of handling the request (or, with `apply`, after handling it). */
      status: z.number().int().min(400).max(599).optional(),
      /**
       * With `status`: handle the request first, then answer that status anyway. The change is made and the
       * caller hears of a failure, as when a service fails after committing.
       */
      apply: z.boolean().optional(),
      retryAfter: z.number().int().min(0).optional(),
      /** Hold the request this long before handling it. */
      delayMs: z.number().int().min(0).max(60_000).optional(),
      /** Handle the request, then close the connection without answering. */
      drop: z.boolean().optional(),
    })
    .refine((f) => f.status !== undefined || f.delayMs !== undefined || f.drop === true, {
      message: "a fault needs status, delayMs or drop",
    })
    .refine((f) => !(f.status !== undefined && f.drop === true), {
      message: "status and drop exclude each other",
    })
    .refine((f) => f.apply !== true || f.status !== undefined, {
      message: "apply needs a status to answer after handling the request",
    })
    // A fault whose path no request can have is accepted by nothing else and never fires: refuse it.
    .superRefine((f, ctx) => {
      const problem = pathProblem(f.method, f.path);
      if (problem) ctx.addIssue({ code: "custom", path: ["path"], message: problem });
    }),
);

/** How fault paths are written, for the message that refuses one. */
const PATH_SYNTAX =
  "a fault's path is a request path as sent, with each {parameter} of the route filled in (/v2/webhooks/3f2a…/deactivate), or a prefix ending in * (/v2/webhooks/*)";

/** Why no API request of `method` can match `path`, or undefined when one can. */
function pathProblem(method: string, path: string): string | undefined {
  if (/[{}]/.test(path)) return `${path} is a route template, which no request path matches: ${PATH_SYNTAX}`;
  const prefix = path.endsWith("*");
  const segments = (prefix ? path.slice(0, -1) : path).split("/");
  const reachable = Object.values(ROUTES).some(
    (route) => route.method === method && templateMatches(route.path.split("/"), segments, prefix),
  );
  return reachable ? undefined : `no ${method} route of the API matches ${path}: ${PATH_SYNTAX}`;
}

/** Whether a request path (or, with `prefix`, the start of one) fits a route template, segment by segment. */
function templateMatches(template: readonly string[], segments: readonly string[], prefix: boolean): boolean {
  if (prefix ? segments.length > template.length : segments.length !== template.length) return false;
  return segments.every((segment, i) => {
    const expected = template[i]!;
    const last = prefix && i === segments.length - 1;
    if (expected.startsWith("{")) return last || segment !== "";
    return last ? expected.startsWith(segment) : expected === segment;
  });
}

/** Faults armed for the next N requests that match a method and path. */
export class FaultTable {
  private faults: { spec: FaultShape; left: number }[] = [];

  add(spec: FaultShape): void {
    this.faults.push({ spec, left: spec.count });
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault for this request, if one is armed; using it counts it down. */
  take(method: string, path: string): FaultShape | undefined {
    const entry = this.faults.find(
      (f) => f.left > 0 && f.spec.method === method && pathMatches(f.spec.path, path),
    );
    if (!entry) return undefined;
    entry.left -= 1;
    this.faults = this.faults.filter((f) => f.left > 0);
    return entry.spec;
  }
}

function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}
