import { createSandboxApp } from "./app";
import { AppUsers } from "./app-users";
import { realClock, type SandboxClock } from "./clock";
import type { SandboxContext, SandboxEnv } from "./context";
import { Deliverer, type DeliveryAttempt } from "./deliveries";
import { DEMO_SEED } from "./demo";
import { FaultSpec as FaultSchema, FaultTable } from "./faults";
import { ImageUrls } from "./images";
import { SlidingWindowLimiter } from "./rate-limit";
import { loadSeedFile, parseSeed, Settings } from "./seed";
import { upsertSession } from "./sessions";
import type * as Shapes from "./shapes";
import type { FaultSpec, RequestRecord, SeedInput, SessionUpsert } from "./shapes";
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
  /** Creates or changes a session and delivers it to every matching active webhook. */
  upsertSession(input: SessionUpsert): {
    /** The session's id, new or the one given. */
    serviceId: string;
    /** The session's counter after this change: 1 for a new session. */
    updateCounter: number;
  };
}

/** A sandbox that is not listening anywhere: mount `fetch` in any server that speaks the Fetch API. */
export interface SandboxApp extends SandboxControls {
  /** Answers one request: the Service API, the admin routes and the image URLs. */
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  /** Cancels every scheduled delivery retry; call it when the app is taken down. */
  stop(): void;
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
    addFault: (fault) => ctx.faults.add(FaultSchema.parse(fault)),
    upsertSession: (input) => {
      const s = upsertSession(ctx, input);
      return { serviceId: s.serviceId, updateCounter: s.updateCounter };
    },
  };
}
