import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";
import { ServiceClient } from "../../provider/client/index";
import { ProcessContext, setProcessContext } from "../../provider/context/process";
import { steppingClock } from "./fake-clock";

/**
 * Servers that answer what a test scripts, and clients of them on a stepping clock: for the client's
 * tests that need an answer the sandbox never gives (a cursor that comes back, a missing Date header, a
 * 429 with an HTTP date).
 */
/** The token of every scripted client. */
export const TOKEN = "token-0123456789";

/** One request a scripted server received. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A server that answers each request with `answer(request, index)`, and records what it was sent. */
export async function scripted(answer: (request: Seen, index: number, res: ServerResponse) => unknown) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      seen.push(request);
      const out = answer(request, seen.length - 1, res);
      if (out === undefined) return;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const opened = {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(opened);
  return opened;
}

let servers: { close(): Promise<void> }[] = [];
/** The clock of the test in progress: the clients of `clientOf` and the process context run on it. */
export let clock: ReturnType<typeof steppingClock>;

/** A create body the spec accepts. */
export const CREATE = {
  endpoint: { type: "url" as const, value: "https://hooks.example.com/e" },
  secret_key: "s".repeat(20),
  filters: [{ key: "activity.name", value: "authentication" }],
};

/** A webhook as the service answers it, numbered. */
export const hook = (n: number) => ({
  webhook_uuid: `hook-${n}`,
  endpoint: { type: "url", value: "https://hooks.example.com/e" },
  filters: [],
});

/** A client of a scripted server, limiter off, on the test's clock. */
export const clientOf = (url: string, options: ConstructorParameters<typeof ServiceClient>[0] = {}) =>
  new ServiceClient({
    token: TOKEN,
    baseUrl: url,
    rateLimitPerSecond: 0,
    clock: clock.now,
    sleep: clock.sleep,
    ...options,
  });

/** The error a promise rejects with; fails the test when it resolves. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure, and the call succeeded");
}

/**
 * Registers, for the calling test file, a fresh clock (and process context on it) before each test and
 * the closing of every scripted server after it.
 */
export function useScriptedServers(): void {
  beforeEach(() => {
    clock = steppingClock(1_700_000_000_000);
    // The provider's re-listing reads the process's clock; the clients get the same one in their options.
    setProcessContext(new ProcessContext({ clock }));
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
}
