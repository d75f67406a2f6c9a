import type { HttpBindings } from "@hono/node-server";
import type { z } from "zod";
import { readableIssue } from "../contract/issues";
import type { Language } from "../contract/languages";
import { formatPath } from "../contract/path";
import type { ApiVersion } from "../contract/versions";
import type { AdminAccess } from "./admin-token";
import type { AppUsers } from "./app-users";
import type { SandboxClock } from "./clock";
import type { Deliverer } from "./deliveries";
import type { FaultTable } from "./faults";
import { invalid } from "./http-errors";
import type { ImageUrls } from "./images";
import type { RequestRecord, Settings } from "./public-types";
import type { SlidingWindowLimiter } from "./rate-limit";
import type { Signer } from "./signer";
import type { SandboxStore, TokenRecord } from "./store";

/** The Hono environment of the sandbox app: @hono/node-server's bindings, absent when mounted elsewhere. */
export type SandboxEnv = { Bindings: Partial<HttpBindings> };

/** Everything a handler may reach: the state, the settings and the sandbox's services. */
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
  /** Signs what the sandbox hands out and checks it when it comes back. */
  readonly signer: Signer;
  readonly images: ImageUrls;
  readonly appUsers: AppUsers;
  /** Who may use the admin routes: the admin token, if any, and the host the sandbox serves. */
  readonly admin: AdminAccess;
}

/** One API request after the common checks: who calls, in which generation and language, with what. */
export interface ApiCall {
  readonly token: TokenRecord;
  /** The generation of the route (a v1 route called with 1.3 is still 1.4-shaped). */
  readonly version: ApiVersion;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The Accept-Language the display strings of the answer follow. */
  readonly language: Language;
  /** `http://host:port` as the caller reached the sandbox, for the absolute URLs an answer carries. */
  readonly origin: string;
}

/** The handler of one route of the route table: its answer is sent as JSON with 200. */
export type ApiHandler = (call: ApiCall, ctx: SandboxContext) => unknown | Promise<unknown>;

/** Validates a request body, answering 400 (or `status`) with every field at fault. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, status = 400): z.output<S> {
  const parsed = schema.safeParse(value, { error: readableIssue });
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => ({
    field: formatPath(issue.path) || "(body)",
    message: issue.message,
  }));
  throw invalid(
    `the request has invalid parameters (${fields.map((f) => `${f.field} ${f.message}`).join("; ")}): correct them and send it again`,
    fields,
    status,
  );
}
