import type { z } from "zod";
import { formatPath } from "../provider/api/rules";
import type { ApiVersion } from "../provider/api/versions";
import type { SandboxClock } from "./clock";
import type { Deliverer } from "./deliveries";
import type { FaultTable } from "./faults";
import { invalid } from "./http-errors";
import type { SlidingWindowLimiter } from "./rate-limit";
import type { Settings } from "./seed";
import type { SandboxStore, TokenRecord } from "./store";

export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  /** The route template that matched, or undefined for an unknown path. */
  readonly route: string | undefined;
  readonly status: number;
  readonly at: number;
}

export interface SandboxContext {
  readonly store: SandboxStore;
  readonly deliverer: Deliverer;
  readonly settings: Settings;
  readonly hosts: Readonly<Record<string, string>>;
  readonly clock: SandboxClock;
  readonly faults: FaultTable;
  readonly limiter: SlidingWindowLimiter;
  readonly requests: RequestRecord[];
  readonly serveDir: string | undefined;
}

export interface ApiCall {
  readonly token: TokenRecord;
  /** The generation of the route (a v1 route called with 1.3 is still 1.4-shaped). */
  readonly version: ApiVersion;
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export type ApiHandler = (call: ApiCall, ctx: SandboxContext) => unknown | Promise<unknown>;

/** Validates a request body, answering 400 (or `status`) with every field at fault. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, status = 400): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => ({
    field: formatPath(issue.path) || "(body)",
    message: issue.message,
  }));
  throw invalid(
    `invalid parameters: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`,
    fields,
    status,
  );
}
