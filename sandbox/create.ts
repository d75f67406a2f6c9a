import { hostnameOf } from "../contract/loopback";
import { ConfigurationError } from "../provider/client/index";
import { createSandboxApp } from "./app";
import { AppUsers } from "./app-users";
import { realClock, type SandboxClock } from "./clock";
import { parseWith, type SandboxContext, type SandboxEnv } from "./context";
import { Deliverer, type DeliveryAttempt } from "./deliveries";
import { DEMO_SEED } from "./demo";
import { FaultSpec as FaultSchema, FaultTable } from "./faults";
import { ImageUrls } from "./images";
import type * as Shapes from "./public-types";
import type { FaultSpec, RequestRecord, SeedInput, SessionUpsert } from "./public-types";
import { SlidingWindowLimiter } from "./rate-limit";
import { loadSeedFile, parseSeed, Settings } from "./seed";
import { upsertSession } from "./sessions";
import { Signer } from "./signer";
import { SandboxStore } from "./store";

/** What a sandbox is made of: its seed, setting overrides, clock and stand-in origin folder. */
export interface SandboxAppOptions {
  /** A seed object or the path of a seed file; the demo organization when omitted. */
  readonly seed?: SeedInput | string;
  /** Overrides of the seed's settings. */
  readonly settings?: Partial<Shapes.Settings>;
  /** The source of time for expiry, the rate limit and delivery retries; the real clock when omitted. */
  readonly clock?: SandboxClock;
  /** A folder served at /_sandbox/origin/, usable as a `hosts` origin. */
  readonly serveDir?: string;
  /**
   * The host the sandbox is served as. `startSandbox` listens on it (loopback, 127.0.0.1, by default); the
   * admin routes answer requests addressed to it as well as to loopback names and addresses.
   */
  readonly host?: string;
  /**
   * A token every admin request (`/_sandbox/*` but the image URLs) must carry in the
   * `x-sandbox-admin-token` header; at least 16 characters. `startSandbox` makes one up when it listens
   * beyond loopback and none is given (nor SERVICE_SANDBOX_ADMIN_TOKEN).
   */
  readonly adminToken?: string;
}

/** The controls a test or demo drives a sandbox with, besides its HTTP API. */
export interface SandboxControls {
  /**
   * The emulator's raw state, for this package's own tests and benches: it holds secret keys and register
   * tokens, and its methods skip the API's checks. Use the HTTP API and the controls here instead.
   * @internal
   */
  readonly store: SandboxStore;
  /** The settings in effect: the seed's, with `SandboxAppOptions.settings` over them. */
  readonly settings: Shapes.Settings;
  /** Every API request the sandbox answered, in order. */
  requests(): readonly RequestRecord[];
  /** Every delivery attempt, in order, with its signed body and Service-Signature header. */
  deliveries(): readonly DeliveryAttempt[];
  /** Resolves when no delivery attempt is running. */
  deliveriesIdle(): Promise<void>;
  /** Arms a fault for the next `count` (default 1) requests matching a method and path. */
  addFault(fault: Partial<FaultSpec> & Pick<FaultSpec, "method" | "path">): void;
  /**
   * Creates or changes a session and delivers it to every matching active webhook. Answers what
   * `POST /_sandbox/sessions` answers, in the same wire names, but the item.
   */
  upsertSession(input: SessionUpsert): {
    /** The session's id, new or the one given. */
    service_id: string;
    /** The session's counter after this change: 1 for a new session. */
    update_counter: number;
  };
}

/** A sandbox that is not listening anywhere: mount `fetch` in any server that speaks the Fetch API. */
export interface SandboxApp extends SandboxControls {
  /** Answers one request: the Service API, the admin routes and the image URLs. */
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  /** Cancels every scheduled delivery retry; call it when the app is taken down. */
  stop(): void;
}

/** The shortest admin token accepted: it stands between the network and every organization's state. */
const MIN_ADMIN_TOKEN_LENGTH = 16;

function checkAdminToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  if (typeof token !== "string" || token.length < MIN_ADMIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new ConfigurationError(
      `The sandbox's adminToken must be a string of at least ${MIN_ADMIN_TOKEN_LENGTH} characters without whitespace: set adminToken (or SERVICE_SANDBOX_ADMIN_TOKEN) to a long random value, or leave it unset on loopback.`,
    );
  }
  return token;
}

/** The served host as the Host header names it; none for a wildcard address, which no request is sent to. */
function servedHost(host: string | undefined): string | undefined {
  const hostname = host === undefined ? undefined : hostnameOf(host);
  return hostname === "0.0.0.0" || hostname === "[::]" ? undefined : hostname;
}

function resolveSeed(seed: SandboxAppOptions["seed"]): Shapes.Seed {
  if (typeof seed === "string") return loadSeedFile(seed);
  return parseSeed(seed ?? DEMO_SEED, "the seed");
}

/**
 * Builds the emulator as a fetch handler, without listening: the shape octokit/fixtures-server uses,
 * so a test server or a framework can mount it. `startSandbox` and the bin wrap it.
 */
export function createSandbox(options: SandboxAppOptions = {}): SandboxApp {
  const seed = resolveSeed(options.seed);
  const settings = Settings.parse({ ...seed.settings, ...options.settings });
  const clock = options.clock ?? realClock;
  const store = new SandboxStore(seed, settings, clock);
  const signer = new Signer();
  const ctx: SandboxContext = {
    store,
    settings,
    clock,
    hosts: seed.hosts,
    deliverer: new Deliverer(clock, settings, seed.hosts),
    faults: new FaultTable(),
    limiter: new SlidingWindowLimiter(settings.rateLimitPerSecond, clock),
    requests: [],
    serveDir: options.serveDir,
    signer,
    images: new ImageUrls(signer, clock),
    appUsers: new AppUsers(store.users),
    admin: { adminToken: checkAdminToken(options.adminToken), servedHost: servedHost(options.host) },
  };
  const app = createSandboxApp(ctx);
  return {
    fetch: (request, env) => app.fetch(request, env as SandboxEnv["Bindings"]),
    stop: () => ctx.deliverer.stop(),
    store,
    settings,
    requests: () => ctx.requests,
    deliveries: () => ctx.deliverer.attempts,
    deliveriesIdle: () => ctx.deliverer.idle(),
    // The same checks as POST /_sandbox/faults: an impossible fault is refused, not silently inert.
    addFault: (fault) => ctx.faults.add(parseWith(FaultSchema, fault)),
    upsertSession: (input) => {
      const s = upsertSession(ctx, input);
      return { service_id: s.serviceId, update_counter: s.updateCounter };
    },
  };
}
