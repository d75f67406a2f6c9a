import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";
import { ServiceClient } from "../../provider/client/index";
import { ManualClock, type Sandbox, type SandboxAppOptions, startSandbox } from "../../sandbox/index";
import { steppingClock } from "./fake-clock";

/** A sandbox for the client's session and integration tests: two organizations, no webhook host. */
/** An acme token with webhooks enabled. */
export const ACME_TOKEN = "client-acme-token-0123456789";
/** An acme token configured with `presign_camera_url` (spec 2.5). */
export const CAMERA_TOKEN = "client-camera-token-0123456789";
export const GLOBEX_TOKEN = "client-globex-token-0123456789";

export interface ClientSandbox {
  readonly sandbox: Sandbox;
  /** The sandbox's clock: sessions created one second apart keep "newest first" well defined. */
  readonly sandboxClock: ManualClock;
  /** The client's clock: its sleeps (retry backoff) return at once. */
  readonly clientClock: ReturnType<typeof steppingClock>;
  /** A client of acme on this sandbox, limiter off, in API 2.0 unless told otherwise. */
  client(options?: ConstructorParameters<typeof ServiceClient>[0]): ServiceClient;
  /** Creates a session one (sandbox) second after the previous one and answers its id. */
  session(
    kind: "authentication" | "fingerprint",
    item?: Record<string, unknown>,
    organization?: "acme" | "globex",
  ): string;
  /** Requests the sandbox answered, for one route template or all of them. */
  requests(route?: string): number;
}

/** Starts a fresh sandbox before each test of the file; its clients run on a clock of their own. */
export function useClientSandbox(options: Pick<SandboxAppOptions, "settings"> = {}): {
  readonly current: ClientSandbox;
} {
  const holder = { current: undefined as unknown as ClientSandbox };
  beforeEach(async () => {
    const sandboxClock = new ManualClock();
    const sandbox = await startSandbox({
      clock: sandboxClock,
      seed: {
        organizations: [
          {
            name: "acme",
            users: ["acme-alice"],
            tokens: [
              { token: ACME_TOKEN, webhooks: true },
              { token: CAMERA_TOKEN, presign_camera_url: true },
            ],
          },
          { name: "globex", users: ["globex-carol"], tokens: [{ token: GLOBEX_TOKEN }] },
        ],
      },
      settings: { rateLimitPerSecond: 0, ...options.settings },
    });
    const clientClock = steppingClock();
    holder.current = {
      sandbox,
      sandboxClock,
      clientClock,
      client: (more = {}) =>
        new ServiceClient({
          token: ACME_TOKEN,
          baseUrl: sandbox.url,
          rateLimitPerSecond: 0,
          clock: clientClock.now,
          sleep: clientClock.sleep,
          ...more,
        }),
      session: (kind, item = {}, organization = "acme") => {
        sandboxClock.advance(1000);
        return sandbox.upsertSession({ organization, kind, item }).service_id;
      },
      requests: (route) => sandbox.requests().filter((r) => route === undefined || r.route === route).length,
    };
  });
  afterEach(async () => {
    await holder.current.sandbox.close();
  });
  return holder;
}

/**
 * A server that answers every request with one canned JSON body, counting the requests. Given a function,
 * it answers what the function returns at the time of each request.
 */
export async function cannedServer(
  body: unknown,
): Promise<{ url: string; received: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    const answer = typeof body === "function" ? body() : body;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The error a promise rejects with; fails the test when it resolves. */
export function rejection<E = Error>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail, and it succeeded");
    },
    (error: unknown) => error as E,
  );
}
