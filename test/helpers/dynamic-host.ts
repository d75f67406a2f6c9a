import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";

/** `value` with a secret wrapper (`{[specialSigKey]: specialSecretSig, value}`) at its top taken off. */
function revealed(value: unknown): unknown {
  const wrapper = value as Record<string, unknown> | null;
  return wrapper?.[specialSigKey] === specialSecretSig ? wrapper.value : value;
}

/**
 * Pulumi's real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`), or another provider process
 * such as this package's plugin, spoken to over gRPC the way the engine speaks to it. The gRPC and protobuf
 * modules are loaded from @pulumi/pulumi's own folder, as the host loads them.
 */
export interface DynamicHost {
  /** Configures a dynamic-provider host as the engine does: the stack's config under namespaced keys. */
  configure(config: Record<string, string>): Promise<void>;
  /**
   * Configures a provider plugin of package `service` as the engine does (provider_plugin.go): `args` are
   * its inputs as given (keys without the namespace, values typed, secrets wrapped), and the deprecated
   * `variables` the same as `service:config:<key>` text, secrets revealed and other values in JSON.
   */
  configureProvider(args: Record<string, unknown>, urn?: string): Promise<void>;
  check(
    urn: string,
    olds: object,
    news: object,
  ): Promise<{ inputs: Record<string, any>; failures: { property: string; reason: string }[] }>;
  diff(
    urn: string,
    id: string,
    olds: object,
    news: object,
    oldInputs?: object,
  ): Promise<{ changes: number; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(urn: string, properties: object): Promise<{ id: string; properties: Record<string, any> }>;
  read(
    urn: string,
    id: string,
    properties: object | undefined,
    inputs?: object,
  ): Promise<{ id: string; properties: Record<string, any>; inputs: Record<string, any> | undefined }>;
  update(urn: string, id: string, olds: object, news: object): Promise<{ properties: Record<string, any> }>;
  delete(urn: string, id: string, properties: object): Promise<void>;
  /** Everything the host printed. */
  output(): string;
  close(): Promise<void>;
  /** The process's id, to read its CPU time by. */
  readonly pid: number | undefined;
  /** performance.now() when the process was spawned, and when it printed its port. */
  readonly startedMs: number;
  readonly readyMs: number;
}

/**
 * What the engine receives when a provider's create or update fails with an error carrying `id` and
 * `properties` (ErrorResourceInitFailed): it keeps the resource in state with these, marked as failed.
 */
export interface InitFailure {
  readonly id: string;
  readonly properties: Record<string, any>;
  readonly reasons: string[];
}

/** A failed call as the engine sees it: the message, and the init-failure details when there are any. */
export class HostCallError extends Error {
  constructor(
    message: string,
    readonly initFailure: InitFailure | undefined,
  ) {
    super(message);
  }
}

/** The failure of a call to a provider process, as the engine receives it; throws if the call succeeded. */
export async function callFailure(call: Promise<unknown>): Promise<HostCallError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HostCallError)) throw new Error(`expected the call to fail, got ${String(error)}`);
  return error;
}

export const DIFF_NONE = 1;
export const DIFF_SOME = 2;

export async function startDynamicHost(options: {
  cwd: string;
  pulumiDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The provider's entry script; the dynamic-provider host by default. */
  entry?: string;
  /** The engine's address the process is started with; one nothing listens on by default. */
  engineAddress?: string;
  /** The `node` to run it with; this process's by default. */
  node?: string;
}): Promise<DynamicHost> {
  const pulumiDir = options.pulumiDir ?? dirname(require.resolve("@pulumi/pulumi/package.json"));
  const load = (id: string) => require(require.resolve(id, { paths: [pulumiDir] }));
  const grpc = load("@grpc/grpc-js");
  const { Struct } = load("google-protobuf/google/protobuf/struct_pb.js");
  const rpc = require(join(pulumiDir, "proto/provider_grpc_pb.js"));
  const proto = require(join(pulumiDir, "proto/provider_pb.js"));
  const status = require(join(pulumiDir, "proto/status_pb.js"));

  const started = performance.now();
  const child: ChildProcess = spawn(
    options.node ?? process.execPath,
    [options.entry ?? join(pulumiDir, "cmd/dynamic-provider"), options.engineAddress ?? "127.0.0.1:1"],
    {
      cwd: options.cwd,
      env: {
        ...process.env,
        PULUMI_NODEJS_PROJECT: "quickstart",
        PULUMI_NODEJS_STACK: "dev",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let printed = "";
  child.stderr!.on("data", (d: Buffer) => {
    printed += d.toString();
  });
  const port = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve(line.trim()));
    child.once("exit", (code) => reject(new Error(`provider process exited with ${code}: ${printed}`)));
  });
  const ready = performance.now();
  child.stdout!.on("data", (d: Buffer) => {
    printed += d.toString();
  });
  const client = new rpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  /** The ErrorResourceInitFailed detail the host packs into `grpc-status-details-bin`, if any. */
  const initFailureOf = (err: { metadata?: { get(key: string): unknown[] } }): InitFailure | undefined => {
    const [bin] = err.metadata?.get("grpc-status-details-bin") ?? [];
    if (!(bin instanceof Uint8Array)) return undefined;
    const detail = status.Status.deserializeBinary(bin)
      .getDetailsList()
      .find((any: any) => any.getTypeName() === "pulumirpc.ErrorResourceInitFailed");
    if (!detail) return undefined;
    const failed = proto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
    return {
      id: failed.getId(),
      properties: failed.getProperties()?.toJavaScript() ?? {},
      reasons: failed.getReasonsList(),
    };
  };
  const unary = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) =>
      client[method](request, (err: (Error & { details?: string }) | null, res: T) =>
        err
          ? reject(new HostCallError(err.details ?? err.message, initFailureOf(err as never)))
          : resolve(res),
      ),
    );
  const struct = (value: object) => Struct.fromJavaScript(value);

  return {
    pid: child.pid,
    startedMs: started,
    readyMs: ready,
    output: () => printed,
    async configure(config) {
      const req = new proto.ConfigureRequest();
      req.setArgs(struct(config));
      // The engine also sends each setting as a variable named `<package>:config:<key>`.
      for (const [key, value] of Object.entries(config)) {
        req.getVariablesMap().set(key.replace(/^([^:]+):/, "$1:config:"), value);
      }
      req.setAcceptsecrets(true);
      await unary("configure", req);
    },
    async configureProvider(args, urn) {
      const req = new proto.ConfigureRequest();
      req.setArgs(struct(args));
      for (const [key, value] of Object.entries(args)) {
        const plain = revealed(value);
        req
          .getVariablesMap()
          .set(`service:config:${key}`, typeof plain === "string" ? plain : JSON.stringify(plain));
      }
      if (urn) req.setUrn(urn);
      req.setAcceptsecrets(true);
      await unary("configure", req);
    },
    async check(urn, olds, news) {
      const req = new proto.CheckRequest();
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await unary<any>("check", req);
      return {
        inputs: res.getInputs().toJavaScript(),
        failures: res
          .getFailuresList()
          .map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(urn, id, olds, news, oldInputs) {
      const req = new proto.DiffRequest();
      req.setUrn(urn);
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      if (oldInputs) req.setOldInputs(struct(oldInputs));
      const res = await unary<any>("diff", req);
      return {
        changes: res.getChanges(),
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(urn, properties) {
      const req = new proto.CreateRequest();
      req.setUrn(urn);
      req.setProperties(struct(properties));
      const res = await unary<any>("create", req);
      return { id: res.getId(), properties: res.getProperties().toJavaScript() };
    },
    async read(urn, id, properties, inputs) {
      const req = new proto.ReadRequest();
      req.setUrn(urn);
      req.setId(id);
      if (properties) req.setProperties(struct(properties));
      if (inputs) req.setInputs(struct(inputs));
      const res = await unary<any>("read", req);
      return {
        id: res.getId(),
        properties: res.getProperties()?.toJavaScript() ?? {},
        inputs: res.getInputs()?.toJavaScript(),
      };
    },
    async update(urn, id, olds, news) {
      const req = new proto.UpdateRequest();
      req.setUrn(urn);
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await unary<any>("update", req);
      return { properties: res.getProperties().toJavaScript() };
    },
    async delete(urn, id, properties) {
      const req = new proto.DeleteRequest();
      req.setUrn(urn);
      req.setId(id);
      req.setProperties(struct(properties));
      await unary("delete", req);
    },
    close: () =>
      new Promise((resolve) => {
        client.close();
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
