/**
 * The shapes `@service/pulumi/sandbox` takes and hands out, as plain TypeScript. The zod schemas that read
 * them (seed.ts, faults.ts, sessions.ts) are checked against these declarations at compile time, so the
 * two cannot drift; this module imports no zod, so that a consumer's compiler never reads zod's
 * declarations.
 */
import type { SessionKind } from "../contract/kinds";

/** The sandbox's tunables: every value the spec leaves "not shown", each with a documented default. */
export interface Settings {
  /** Requests per second per token; 0 turns the limit off. Default 10. */
  rateLimitPerSecond: number;
  /** Lifetime of a domain verification link. Default 3600. */
  verificationTtlSeconds: number;
  /** Failed finish_registration attempts before the sandbox answers 429. Default 5. */
  maxFailedFinishAttempts: number;
  /** How long finish_registration stays blocked once the attempts are spent. Default 60. */
  finishBlockSeconds: number;
  /** Deliveries are retried until this long after the first attempt. Default 3600. */
  deliveryMaxSeconds: number;
  /** First retry delay; each later one doubles. Default 1. */
  deliveryRetryBaseSeconds: number;
  /** How long one delivery attempt, or one verification fetch, may take. Default 5000. */
  outboundTimeoutMs: number;
  /** Lifetime of an authentication config (`exp - iat`). Default 3600. */
  configLifetimeSeconds: number;
  /** Make supported-brands answer 503 ("temporarily unavailable; retry"). Default false. */
  brandsUnavailable: boolean;
}

/** One API token of a seeded organization. */
export interface SeedToken {
  /** The token's value, as clients send it in `Authorization: Token <token>`. */
  token: string;
  /** Whether webhook features are enabled for it (off by default, as on the service). */
  webhooks?: boolean | undefined;
  /** The user that objects created with this token belong to; defaults to the first user. */
  user?: string | undefined;
  /** The token setting of spec 2.5: items carry a legacy `images.camera` without image flags. */
  presign_camera_url?: boolean | undefined;
}

/** One seeded organization. */
export interface SeedOrganization {
  /** The organization's name, as `owner.organization.name` shows it. */
  name: string;
  /** The usernames of its app users, which `owner.user.username` filters may name. */
  users?: string[] | undefined;
  /** Its API tokens. */
  tokens?: SeedToken[] | undefined;
}

/** A seed as written in a seed file or passed to `startSandbox`: every member optional. */
export interface SeedInput {
  /** The organizations, with their users and tokens. */
  organizations?: SeedOrganization[] | undefined;
  /** Origin that stands in for https://<hostname> when the sandbox calls out. */
  hosts?: Record<string, string> | undefined;
  /** Overrides of the default settings. */
  settings?: Partial<Settings> | undefined;
}

/** A seed with every default applied. */
export interface Seed {
  organizations: {
    name: string;
    users: string[];
    tokens: { token: string; webhooks: boolean; user?: string | undefined; presign_camera_url: boolean }[];
  }[];
  hosts: Record<string, string>;
  settings: Settings;
}

/** A fault to arm: which requests it hits, how many times, and what it does to them. */
export interface FaultSpec {
  /** The method of the requests it hits. */
  method: "GET" | "POST";
  /** An exact path, or a prefix ending in `*`. */
  path: string;
  /** How many matching requests it hits (1 when armed through `addFault` without it). */
  count: number;
  /** Answer with this status instead of handling the request (or, with `apply`, after handling it). */
  status?: number | undefined;
  /** With `status`: handle the request first, then answer that status anyway. */
  apply?: boolean | undefined;
  /** Seconds to send in Retry-After with `status`. */
  retryAfter?: number | undefined;
  /** Hold the request this long before handling it. */
  delayMs?: number | undefined;
  /** Handle the request, then close the connection without answering. */
  drop?: boolean | undefined;
}

/** A session to create or change, and deliver to matching webhooks. */
export interface SessionUpsert {
  /** The seeded organization that owns the session. */
  organization: string;
  /** `authentication` or `fingerprint`. */
  kind: SessionKind;
  /** Omit to create a session; give an existing id to change it. */
  service_id?: string | undefined;
  /** Owner username; defaults to the organization's first user. */
  user?: string | undefined;
  /** Members merged into the item (deeply), for example `{status: {result: {id: "unidentified"}}}`. */
  item?: Record<string, unknown> | undefined;
}

/** One API request the sandbox answered, as `GET /_sandbox/requests` lists it. */
export interface RequestRecord {
  /** The HTTP method. */
  readonly method: string;
  /** The path as requested, without the query. */
  readonly path: string;
  /** The route template that matched, or undefined for an unknown path. */
  readonly route: string | undefined;
  /** The status the sandbox answered. */
  readonly status: number;
  /** When it answered, in milliseconds since the epoch on the sandbox's clock. */
  readonly at: number;
}
