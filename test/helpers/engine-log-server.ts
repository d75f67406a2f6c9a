import { dirname, join } from "node:path";

/** One Log call a provider made to the engine. */
export interface EngineLog {
  /** The severity's name: DEBUG, INFO, WARNING or ERROR. */
  readonly severity: string;
  readonly message: string;
  readonly urn: string;
}

/**
 * The engine's side of the Log call, on 127.0.0.1, as a provider process started with its address speaks
 * to it; it records what it is sent. The gRPC and protobuf modules come from @pulumi/pulumi's folder.
 */
export async function startFakeEngine(): Promise<{
  readonly address: string;
  readonly logs: EngineLog[];
  close(): Promise<void>;
}> {
  const sdk = dirname(require.resolve("@pulumi/pulumi/package.json"));
  const load = (id: string) => require(require.resolve(id, { paths: [sdk] }));
  const grpc = load("@grpc/grpc-js");
  const { EngineService } = require(join(sdk, "proto/engine_grpc_pb.js"));
  const { LogSeverity } = require(join(sdk, "proto/engine_pb.js"));
  const { Empty } = load("google-protobuf/google/protobuf/empty_pb.js");
  const severities = Object.fromEntries(Object.entries(LogSeverity).map(([name, value]) => [value, name]));
  const logs: EngineLog[] = [];
  const server = new grpc.Server();
  server.addService(EngineService, {
    log(call: { request: any }, callback: (error: null, answer: unknown) => void) {
      const { request } = call;
      logs.push({
        severity: severities[request.getSeverity()] as string,
        message: request.getMessage(),
        urn: request.getUrn(),
      });
      callback(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (error: Error | null, p: number) => (error ? reject(error) : resolve(p)),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
