/**
 * Warnings from the provider plugin to the engine, shown on a resource as `warning: ...` under it, in
 * the preview as in the update. @pulumi/pulumi/provider's server gives a provider no way to log to the
 * engine outside a Construct, so this speaks the engine's Log call itself, to the address the engine
 * started the plugin with. A warning that cannot be delivered goes to stderr, which the engine keeps in
 * its logs: a warning never fails an operation.
 */
import { redact } from "../context/process";
import { fromSdk } from "./server-hooks";

/** Shows `message` as a warning on the resource `urn`. */
export type WarnOnResource = (urn: string, message: string) => void;

interface EngineClient {
  log(request: unknown, callback: (error: Error | null) => void): void;
}

/** The engine's address among the plugin's arguments: the first that is not a flag (as the SDK's server reads it). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tracing") i += 1;
    else if (arg !== "--logtostderr" && !arg.startsWith("-v=")) return arg;
  }
  return undefined;
}

/** A warning channel to the engine at `address`; the client is made on the first warning. */
export function engineWarnings(address: string | undefined): WarnOnResource {
  let client: { engine: EngineClient; request(urn: string, message: string): unknown } | undefined;
  return (urn, message) => {
    const text = redact(message);
    if (address === undefined) {
      process.stderr.write(`warning: ${text}\n`);
      return;
    }
    client ??= engineClient(address);
    client.engine.log(client.request(urn, text), (error) => {
      if (error) process.stderr.write(`warning: ${text}\n`);
    });
  };
}

/** The engine's gRPC client, with the gRPC and protobuf modules of @pulumi/pulumi's own folder. */
function engineClient(address: string) {
  const grpc = fromSdk<{ credentials: { createInsecure(): unknown } }>("@grpc/grpc-js");
  const { EngineClient } = fromSdk<{
    EngineClient: new (address: string, credentials: unknown) => EngineClient;
  }>("@pulumi/pulumi/proto/engine_grpc_pb");
  const { LogRequest, LogSeverity } = fromSdk<{
    LogRequest: new () => {
      setSeverity(severity: number): void;
      setMessage(message: string): void;
      setUrn(urn: string): void;
    };
    LogSeverity: { WARNING: number };
  }>("@pulumi/pulumi/proto/engine_pb");
  const engine = new EngineClient(address, grpc.credentials.createInsecure());
  return {
    engine,
    request(urn: string, message: string) {
      const request = new LogRequest();
      request.setSeverity(LogSeverity.WARNING);
      request.setMessage(message);
      request.setUrn(urn);
      return request;
    },
  };
}
