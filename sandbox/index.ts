import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSandboxApp } from "./app";
import { ManualClock, realClock, type SandboxClock } from "./clock";
import type { RequestRecord, SandboxContext } from "./context";
import { Deliverer, type DeliveryAttempt, signatureFor } from "./deliveries";
import { type FaultSpec, FaultTable } from "./faults";
import { SlidingWindowLimiter } from "./rate-limit";
import { DEMO_SEED, DEMO_TOKEN, loadSeedFile, Seed, type SeedInput, Settings } from "./seed";
import { type SessionUpsert, upsertSession } from "./sessions";
import { SandboxStore } from "./store";

export type { DeliveryAttempt, FaultSpec, RequestRecord, SandboxClock, SeedInput, SessionUpsert };
export { DEMO_SEED, DEMO_TOKEN, ManualClock, realClock, signatureFor };

export interface SandboxOptions {
  readonly port?: number;
  readonly host?: string;
  /** A seed object or the path of a seed file; the demo organization when omitted. */
  readonly seed?: SeedInput | string;
  /** Overrides of the seed's settings. */
  readonly settings?: Partial<Settings>;
  readonly clock?: SandboxClock;
  /** A folder served at /_sandbox/origin/, usable as a `hosts` origin. */
  readonly serveDir?: string;
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
  readonly store: SandboxStore;
  readonly settings: Settings;
  /** Every API request the sandbox answered, in order. */
  requests(): readonly RequestRecord[];
  deliveries(): readonly DeliveryAttempt[];
  /** Resolves when no delivery attempt is running. */
  deliveriesIdle(): Promise<void>;
  addFault(fault: Partial<FaultSpec> & Pick<FaultSpec, "method" | "path">): void;
  upsertSession(input: SessionUpsert): { serviceId: string; updateCounter: number };
}

function resolveSeed(seed: SandboxOptions["seed"]): Seed {
  if (typeof seed === "string") return loadSeedFile(seed);
  return Seed.parse(seed ?? DEMO_SEED);
}

/** Starts the emulator on loopback. Port 0 (the default) picks a free port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = resolveSeed(options.seed);
  const settings = Settings.parse({ ...seed.settings, ...options.settings });
  const clock = options.clock ?? realClock;
  const store = new SandboxStore(seed, settings, clock);
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
  };
  const app = createSandboxApp(ctx);
  const host = options.host ?? "127.0.0.1";
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, (info: AddressInfo) =>
        resolve({ server: s, port: info.port }),
      );
      s.once("error", reject);
    },
  );
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    store,
    settings,
    requests: () => ctx.requests,
    deliveries: () => ctx.deliverer.attempts,
    deliveriesIdle: () => ctx.deliverer.idle(),
    addFault: (fault) => ctx.faults.add({ count: 1, ...fault }),
    upsertSession: (input) => {
      const s = upsertSession(ctx, input);
      return { serviceId: s.serviceId, updateCounter: s.updateCounter };
    },
    close: () =>
      new Promise<void>((resolve) => {
        ctx.deliverer.stop();
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
