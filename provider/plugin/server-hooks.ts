/**
 * What the engine sends that `@pulumi/pulumi/provider`'s server (3.270) drops or cannot take, and the
 * detailed diff its Diff answer cannot carry. Its `main`
 * builds the gRPC service itself and hands a provider only some of each request: Configure's `args` and
 * `variables` (the provider's configuration, `service:token` and the rest) reach no provider method at all, and Diff's
 * stored inputs are left out; and a Read without properties, which is what `pulumi import` sends, fails
 * in the server before the provider is called ("Cannot read properties of undefined (reading
 * 'toJavaScript')"). This module hooks the service `main` registers, once, to read those two and to give
 * such a Read empty properties, before and after the server's own handlers run; everything else is the
 * SDK's.
 */
import { dirname } from "node:path";

/** What the plugin reads of the engine's ConfigureRequest. */
export interface ConfigureRequest {
  /**
   * `args`: the provider's inputs, keyed by setting (`token`), typed as the schema says (a provider
   * resource's number is a number) and with secrets wrapped. Absent from an engine that sends only
   * `variables`.
   */
  readonly args?: Readonly<Record<string, unknown>> | undefined;
  /** `variables`, deprecated: `<package>:config:<key>` to text, secrets revealed. */
  readonly variables: Iterable<readonly [string, string]>;
  /** The URN of the provider being configured, which the warnings are shown on. */
  readonly urn?: string | undefined;
}

/** A gRPC unary call as the SDK's handlers receive it: the request is a protobuf message. */
interface Call {
  readonly request: {
    getUrn?(): string;
    getVariablesMap?(): { entries(): Iterable<[string, string]> };
    getArgs?(): { toJavaScript(): Record<string, unknown> } | undefined;
    getOldInputs?(): { toJavaScript(): Record<string, unknown> } | undefined;
    getProperties?(): unknown;
    setProperties?(properties: unknown): void;
  };
}
type Handler = (call: Call, callback: (...args: unknown[]) => void) => unknown;

/** What to do with the parts of the engine's requests that the server drops. */
export interface RequestHooks {
  /** Configure's request, before the server answers it. */
  configure(request: ConfigureRequest): void;
  /**
   * Diff's stored inputs for `urn` while the server handles the Diff; the function returned is called with
   * the server's DiffResponse (none after a failure) before it is sent, to add what the server leaves out
   * (the detailed diff), and to clear what was kept for the Diff.
   */
  diffing(urn: string, oldInputs: Record<string, unknown> | undefined): (response: unknown) => void;
  /** The server `main` made, once its service is registered: the plugin's lifetime stops it. */
  serving(server: GrpcServer): void;
}

/** What the plugin uses of a grpc-js Server. */
export interface GrpcServer {
  /** Stops taking calls; `done` runs once the calls in flight have answered. */
  tryShutdown(done: (error?: Error) => void): void;
}

/** A module as `@pulumi/pulumi/provider` loads it (its own grpc-js and google-protobuf). */
export function fromSdk<T>(module: string): T {
  const sdk = dirname(require.resolve("@pulumi/pulumi/package.json"));
  return require(require.resolve(module, { paths: [sdk] }));
}

/** The grpc-js module whose Server `main` creates. */
const sdkGrpc = () =>
  fromSdk<{ Server: { prototype: { addService(service: unknown, impl: object): void } } }>("@grpc/grpc-js");

/** The server's handlers, with `configure` and `diff` reading what it would drop, and `read` fit for an import. */
function hooked(server: Record<string, Handler>, hooks: RequestHooks): object {
  const handlers = Object.create(server) as Record<string, Handler>;
  handlers.configure = (call, callback) => {
    try {
      hooks.configure({
        args: call.request.getArgs?.()?.toJavaScript(),
        variables: call.request.getVariablesMap?.().entries() ?? [],
        urn: call.request.getUrn?.(),
      });
    } catch (error) {
      callback(error);
      return;
    }
    return server.configure!.call(server, call, callback);
  };
  handlers.read = (call, callback) => {
    if (call.request.getProperties?.() === undefined) {
      const { Struct } = fromSdk<{ Struct: new () => unknown }>("google-protobuf/google/protobuf/struct_pb");
      call.request.setProperties?.(new Struct());
    }
    return server.read!.call(server, call, callback);
  };
  handlers.diff = (call, callback) => {
    const done = hooks.diffing(call.request.getUrn?.() ?? "", call.request.getOldInputs?.()?.toJavaScript());
    return server.diff!.call(server, call, (...args: unknown[]) => {
      done(args[0] ? undefined : args[1]);
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
    addService.call(this, service, hooked(implementation as Record<string, Handler>, hooks));
    hooks.serving(this as GrpcServer);
  };
  try {
    return await start();
  } finally {
    prototype.addService = addService;
  }
}
