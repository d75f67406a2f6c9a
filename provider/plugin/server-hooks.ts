/**
 * What the engine sends that `@pulumi/pulumi/provider`'s server drops. Its `main` builds the gRPC service
 * itself and hands a provider only some of each request: Configure's variables (the provider's
 * configuration, `service:token` and the rest) reach no provider method at all, and Diff's stored inputs
 * are left out. This module hooks the service `main` registers, once, to read those two before the
 * server's own handlers run; everything else is the SDK's.
 */
import { dirname } from "node:path";

/** A gRPC unary call as the SDK's handlers receive it: the request is a protobuf message. */
interface Call {
  readonly request: {
    getUrn?(): string;
    getVariablesMap?(): { entries(): Iterable<[string, string]> };
    getOldInputs?(): { toJavaScript(): Record<string, unknown> } | undefined;
  };
}
type Handler = (call: Call, callback: (...args: unknown[]) => void) => unknown;

/** What to do with the parts of the engine's requests that the server drops. */
export interface RequestHooks {
  /** Configure's variables, before the server answers it. */
  configure(variables: Iterable<[string, string]>): void;
  /** Diff's stored inputs for `urn` while the server handles the Diff; cleared once it has answered. */
  diffing(urn: string, oldInputs: Record<string, unknown> | undefined): () => void;
}

/** The grpc-js module that `@pulumi/pulumi/provider` loads: the one whose Server `main` creates. */
function sdkGrpc(): { Server: { prototype: { addService(service: unknown, impl: object): void } } } {
  const sdk = dirname(require.resolve("@pulumi/pulumi/package.json"));
  return require(require.resolve("@grpc/grpc-js", { paths: [sdk] }));
}

/** The server's handlers, with `configure` and `diff` reading what the server would drop. */
function hooked(server: Record<string, Handler>, hooks: RequestHooks): object {
  const handlers = Object.create(server) as Record<string, Handler>;
  handlers.configure = (call, callback) => {
    try {
      hooks.configure(call.request.getVariablesMap?.().entries() ?? []);
    } catch (error) {
      callback(error);
      return;
    }
    return server.configure!.call(server, call, callback);
  };
  handlers.diff = (call, callback) => {
    const done = hooks.diffing(call.request.getUrn?.() ?? "", call.request.getOldInputs?.()?.toJavaScript());
    return server.diff!.call(server, call, (...args: unknown[]) => {
      done();
      callback(...args);
    });
  };
  return handlers;
}

/** Runs `start` (the SDK's `main`) with the next gRPC service it registers hooked. */
export async function withRequestHooks<T>(hooks: RequestHooks, start: () => Promise<T>): Promise<T> {
  const prototype = sdkGrpc().Server.prototype;
  const addService = prototype.addService;
  prototype.addService = function (this: unknown, service: unknown, implementation: object) {
    prototype.addService = addService;
    return addService.call(this, service, hooked(implementation as Record<string, Handler>, hooks));
  };
  try {
    return await start();
  } finally {
    prototype.addService = addService;
  }
}
