/**
 * How long the provider plugin lives: until the engine that started it is gone. The engine stops the
 * plugins it is done with; this ends one whose engine was killed and could not, on every platform:
 * - the engine's gRPC connection: the plugin holds one HTTP/2 connection to the address it was started
 *   with, and the operating system closes it when the engine's process ends, however it ends (Windows
 *   included, where a process's parent pid never changes);
 * - on Linux and macOS also the parent pid: when the parent ends, the plugin is reparented to init or a
 *   subreaper, which shows even when no connection could be made (an engine address nothing listens on).
 * Once the engine is gone, the calls in flight may finish for up to DRAIN_MS: a create that reached the
 * service then ends as it would have, and its attempt note stays (engine-cancel.ts), since the engine
 * will never record its outcome.
 */
import { connect } from "node:http2";
import type * as provider from "@pulumi/pulumi/provider";
import { engineGone } from "../context/engine-cancel";
import type { GrpcServer } from "./server-hooks";

/** How often the plugin looks whether its parent process is still there. */
const PARENT_POLL_MS = 500;
/** How long calls in flight may go on once the engine is gone, before the plugin exits regardless. */
export const DRAIN_MS = 5_000;

/** Watches the engine, and counts the calls in flight so that the plugin exits once they are done. */
export interface PluginLifetime {
  /** `served` with each of its methods counted as a call in flight while it runs. */
  tracked(served: provider.Provider): provider.Provider;
  /** The gRPC server that answers the calls: stopped once the engine is gone, after their answers. */
  serving(server: GrpcServer): void;
}

/**
 * Starts watching the engine at `engineAddress` (the plugin's first argument; none when it was not
 * given) and the parent process; exits the process once either is gone and the calls in flight are done,
 * or DRAIN_MS after.
 */
export function watchEngine(engineAddress: string | undefined): PluginLifetime {
  let inFlight = 0;
  let gone = false;
  let server: GrpcServer | undefined;
  // Exits once every answer is sent: a client other than the dead engine may still be reading one.
  const stop = () => (server ? server.tryShutdown(() => process.exit(0)) : process.exit(0));
  const end = () => {
    if (gone) return;
    gone = true;
    // Waits on something outside the service (a Domain's file) stop, and notes of creates stay.
    engineGone();
    setTimeout(() => process.exit(0), DRAIN_MS);
    if (inFlight === 0) stop();
  };
  watchParent(end);
  if (engineAddress !== undefined) watchConnection(engineAddress, end);
  return {
    tracked(served) {
      const counted: Record<string, unknown> = { ...served };
      for (const [name, method] of Object.entries(served)) {
        if (typeof method !== "function") continue;
        counted[name] = async (...args: unknown[]) => {
          inFlight += 1;
          try {
            return await method.apply(served, args);
          } finally {
            inFlight -= 1;
            // The last call done after the engine went: nothing is left to finish.
            if (gone && inFlight === 0) stop();
          }
        };
      }
      return counted as unknown as provider.Provider;
    },
    serving(grpcServer) {
      server = grpcServer;
    },
  };
}

/** Calls `end` once the parent pid changes: the process that started the plugin ended (POSIX only). */
function watchParent(end: () => void): void {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) end();
  }, PARENT_POLL_MS);
  // The gRPC server keeps the plugin alive; the watch alone must not.
  watch.unref();
}

/**
 * Calls `end` once the HTTP/2 connection to the engine, made now, closes. A connection that cannot be made
 * (nothing listens there) watches nothing: the plugin then serves on, as it did before it watched.
 */
function watchConnection(address: string, end: () => void): void {
  let connected = false;
  const session = connect(`http://${address}`);
  session.once("connect", () => {
    connected = true;
  });
  // A refused connection or a reset: the close that follows says which.
  session.on("error", () => {});
  session.once("close", () => {
    if (connected) end();
  });
  // The connection alone must not keep the plugin alive either.
  session.unref();
}
