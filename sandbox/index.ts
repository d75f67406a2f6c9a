import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { DEFAULT_BASE_URL } from "../contract/default-base-url";
import { ADMIN_TOKEN_ENV, ADMIN_TOKEN_HEADER, resolveAdminToken } from "./admin-token";
import { ManualClock, realClock, type SandboxClock } from "./clock";
import { createSandbox, type SandboxApp, type SandboxAppOptions, type SandboxControls } from "./create";
import { type DeliveryAttempt, signatureFor } from "./deliveries";
import { DEMO_SEED, DEMO_TOKEN } from "./demo";
import { MAX_BODY_BYTES, MAX_JSON_NESTING } from "./limits";
import type {
  FaultSpec,
  RequestRecord,
  SeedInput,
  SeedOrganization,
  SeedToken,
  SessionUpsert,
  Settings,
} from "./public-types";
import { drainUnreadBodies } from "./unread-body";

export type {
  DeliveryAttempt,
  FaultSpec,
  RequestRecord,
  SandboxApp,
  SandboxAppOptions,
  SandboxClock,
  SandboxControls,
  SeedInput,
  SeedOrganization,
  SeedToken,
  SessionUpsert,
  Settings,
};
export {
  ADMIN_TOKEN_ENV,
  ADMIN_TOKEN_HEADER,
  createSandbox,
  DEMO_SEED,
  DEMO_TOKEN,
  MAX_BODY_BYTES,
  MAX_JSON_NESTING,
  ManualClock,
  realClock,
  signatureFor,
};

/** The port the bin listens on without `--port`: the one of the client's default base URL (8787). */
export const DEFAULT_PORT = Number(new URL(DEFAULT_BASE_URL).port);

/** Options of `startSandbox`: what the sandbox is made of, and where it listens. */
export interface SandboxOptions extends SandboxAppOptions {
  /** The port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
}

/** A listening sandbox. */
export interface Sandbox extends SandboxControls {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The port it listens on (the one picked when asked for 0). */
  readonly port: number;
  /**
   * The token the admin routes require in the `x-sandbox-admin-token` header, or undefined when they
   * require none (on loopback, unless one was set). A secret: print it only to whoever started the sandbox.
   */
  readonly adminToken: string | undefined;
  /** True when `adminToken` was made up at start (listening beyond loopback with none given). */
  readonly adminTokenGenerated: boolean;
  /** Stops listening, drops open connections and cancels scheduled delivery retries. */
  close(): Promise<void>;
}

/** `startSandbox` could not listen where it was asked: the port is taken, or not ours to take. */
export class SandboxListenError extends Error {
  /** `port_in_use` when another process listens there, else `listen_failed`. */
  readonly code: "port_in_use" | "listen_failed";

  constructor(
    /** The address it tried to listen on. */
    readonly host: string,
    /** The port it tried to listen on. */
    readonly port: number,
    cause: NodeJS.ErrnoException,
  ) {
    const inUse = cause.code === "EADDRINUSE";
    super(
      inUse
        ? `port ${port} on ${host} is already in use (another sandbox may be running there); stop that process, or pick another port with --port <n> (0 picks a free one)`
        : `cannot listen on ${host}:${port} (${cause.code ?? cause.message}); pick another port with --port <n> (0 picks a free one)`,
      { cause },
    );
    this.name = "SandboxListenError";
    this.code = inUse ? "port_in_use" : "listen_failed";
  }
}

function listen(app: SandboxApp, host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer();
  // Before the adapter's listener, so that it is in place whatever a handler does (unread-body.ts).
  drainUnreadBodies(server);
  // What @hono/node-server's `serve` builds, with its own drain of unread bodies off.
  server.on("request", getRequestListener(app.fetch, { hostname: host, autoCleanupIncoming: false }));
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(new SandboxListenError(host, port, error)));
    server.listen(port, host, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

/**
 * Starts the emulator on loopback (a thin wrapper around `createSandbox`). Port 0 (the default) picks a
 * free port. Rejects with a `SandboxListenError`, whose message is one line fit to print, when the port
 * is taken. Told to listen beyond loopback (`host: "0.0.0.0"`), it requires an admin token on the admin
 * routes: `adminToken`, else SERVICE_SANDBOX_ADMIN_TOKEN, else one made up and returned as `adminToken`.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const { adminToken, generated } = resolveAdminToken(host, options.adminToken);
  const app = createSandbox({ ...options, host, adminToken });
  const { server, port } = await listen(app, host, options.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const { fetch: _fetch, stop, ...controls } = app;
  return {
    ...controls,
    url: `http://${urlHost}:${port}`,
    port,
    adminToken,
    adminTokenGenerated: generated,
    close: () =>
      new Promise<void>((resolve) => {
        stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
