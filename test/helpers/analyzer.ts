import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import type * as PolicyModule from "@pulumi/policy";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import * as registry from "../../provider/registry";
import { HOOKS_TOKEN, HOST, SECRET } from "./fixtures";

/**
 * Policy packs the way the engine sees them: resources shaped as AnalyzeStack/Analyze carry them (secrets
 * in the secret-signature form, unknowns as sentinels), fixture stacks built from them, the same stacks as
 * @pulumi/policy hands them to a policy in-process, and a gRPC driver for a served pack.
 */

const STACK = "dev";
const PROJECT = "infra";
const STACK_URN = `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`;
const NODEJS_PROVIDER = {
  type: "pulumi:providers:pulumi-nodejs",
  name: "default",
  urn: `urn:pulumi:${STACK}::${PROJECT}::pulumi:providers:pulumi-nodejs::default`,
  properties: {},
};

/** One AnalyzerResource, as the engine fills it. */
export interface EngineResource {
  readonly type: string;
  readonly urn: string;
  readonly name: string;
  readonly properties: Record<string, unknown>;
  readonly parent?: string | undefined;
  readonly dependencies?: readonly string[];
  readonly propertyDependencies?: Readonly<Record<string, readonly string[]>>;
  /** Sent as options.deleteBeforeReplace with deleteBeforeReplaceDefined, when set. */
  readonly deleteBeforeReplace?: boolean | undefined;
  readonly provider?: typeof NODEJS_PROVIDER | undefined;
}

/** A value the program marked secret, as the engine marshals it to an analyzer. */
export function secret<T>(value: T): Record<string, unknown> {
  return { [specialSigKey]: specialSecretSig, value };
}

function urnOf(type: string, name: string, parentType?: string): string {
  return `urn:pulumi:${STACK}::${PROJECT}::${parentType ? `${parentType}$` : ""}${type}::${name}`;
}

const WEBHOOK = "pulumi-nodejs:dynamic/service:Webhook";
const DOMAIN = "service:index:Domain";
const REGISTRATION = "pulumi-nodejs:dynamic/service:DomainRegistration";
const VERIFICATION = "pulumi-nodejs:dynamic/service:DomainVerification";

/** The stack resource every top-level resource is parented to. */
export const stackResource: EngineResource = {
  type: "pulumi:pulumi:Stack",
  urn: STACK_URN,
  name: `${PROJECT}-${STACK}`,
  properties: {},
};

/** A Domain component with its two steps, as `new service.Domain(name, { domainName })` registers it. */
export interface DomainFixture {
  readonly urn: string;
  /** What the Node SDK puts in `dependencies` for `dependsOn: [domain]`: the component's custom children. */
  readonly children: readonly string[];
  readonly resources: readonly EngineResource[];
}

/** `componentProperties` stands for what the component registers itself (nothing, today). */
export function domain(
  name: string,
  hostname: unknown = HOST,
  componentProperties: Record<string, unknown> = {},
): DomainFixture {
  const component: EngineResource = {
    type: DOMAIN,
    urn: urnOf(DOMAIN, name),
    name,
    properties: componentProperties,
    parent: STACK_URN,
  };
  const step = (type: string, suffix: string, extra: Record<string, unknown>): EngineResource => ({
    type,
    urn: urnOf(type, `${name}-${suffix}`, DOMAIN),
    name: `${name}-${suffix}`,
    properties: { domainName: hostname, ...extra },
    parent: component.urn,
    provider: NODEJS_PROVIDER,
  });
  const registration = step(REGISTRATION, "registration", {});
  const verification = {
    ...step(VERIFICATION, "verification", { registerToken: secret("register-token-0123") }),
    dependencies: [registration.urn],
  };
  return {
    urn: component.urn,
    children: [registration.urn, verification.urn],
    resources: [component, registration, verification],
  };
}

/** Inputs of a Webhook fixture (an `undefined` leaves the input out), plus the options the engine reports. */
export interface WebhookFixtureArgs {
  readonly endpoint?: unknown;
  readonly secretKey?: unknown;
  readonly filters?: unknown;
  readonly channel?: unknown;
  readonly apiVersion?: unknown;
  readonly connection?: unknown;
  readonly dependencies?: readonly string[];
  readonly propertyDependencies?: Readonly<Record<string, readonly string[]>>;
  readonly deleteBeforeReplace?: boolean;
}

/** A Webhook as `new service.Webhook(name, ...)` registers it; by default on HOST, secret key marked secret. */
export function webhook(name: string, args: WebhookFixtureArgs = {}): EngineResource {
  const { dependencies, propertyDependencies, deleteBeforeReplace, ...inputs } = args;
  const properties: Record<string, unknown> = {
    endpoint: `https://${HOST}/service/events`,
    secretKey: secret(SECRET),
    filters: [{ key: "activity.name", value: "authentication" }],
    ...inputs,
  };
  return {
    type: WEBHOOK,
    urn: urnOf(WEBHOOK, name),
    name,
    properties: Object.fromEntries(Object.entries(properties).filter(([, v]) => v !== undefined)),
    parent: STACK_URN,
    dependencies,
    propertyDependencies,
    deleteBeforeReplace,
    provider: NODEJS_PROVIDER,
  };
}

const PLUGIN_TOKENS = new Map(Object.values(registry).map((d) => [d.token, d.pluginToken]));

/** `text` with every dynamic type token replaced by the provider plugin's (URNs, messages). */
export function withPluginTokens(text: string): string {
  let out = text;
  for (const [dynamic, plugin] of PLUGIN_TOKENS) out = out.split(dynamic).join(plugin);
  return out;
}

/**
 * The same resources as a program that uses the provider plugin registers them: `service:index:*` type
 * tokens (in types, URNs, parents and dependencies), under the plugin's default provider.
 */
export function throughPlugin(resources: readonly EngineResource[]): EngineResource[] {
  const provider = {
    type: "pulumi:providers:service",
    name: "default",
    urn: `urn:pulumi:${STACK}::${PROJECT}::pulumi:providers:service::default`,
    properties: {},
  };
  return resources.map((r) => ({
    ...r,
    type: withPluginTokens(r.type),
    urn: withPluginTokens(r.urn),
    parent: r.parent && withPluginTokens(r.parent),
    dependencies: r.dependencies?.map(withPluginTokens),
    propertyDependencies:
      r.propertyDependencies &&
      Object.fromEntries(
        Object.entries(r.propertyDependencies).map(([k, v]) => [k, v.map(withPluginTokens)]),
      ),
    provider: r.provider && provider,
  }));
}

/** Something of another package, which every policy must ignore. */
export function foreignResource(name: string): EngineResource {
  const type = "aws:s3/bucketV2:BucketV2";
  return { type, urn: urnOf(type, name), name, properties: { bucket: name, tags: {} }, parent: STACK_URN };
}

const hooks = domain("hooks");
const onHooks = { dependencies: hooks.children };

/** The stacks the issue's probe runs, one per broken rule and a clean one. */
export const probeStacks = {
  elevenWebhooks: [
    stackResource,
    ...hooks.resources,
    // One over the service's quota: eleven, as in the issue.
    ...Array.from({ length: MAX_ACTIVE_WEBHOOKS + 1 }, (_, i) =>
      webhook(`hook-${i + 1}`, {
        ...onHooks,
        channel: `ch-${i + 1}`,
        connection: secret({ token: HOOKS_TOKEN }),
      }),
    ),
  ],
  hostWithoutDomain: [
    stackResource,
    ...hooks.resources,
    webhook("elsewhere", { ...onHooks, endpoint: "https://hooks.nowhere.test/service/events" }),
  ],
  identicalWebhooks: [
    stackResource,
    ...hooks.resources,
    webhook("first", onHooks),
    webhook("second", onHooks),
  ],
  noDomainDependency: [stackResource, ...hooks.resources, webhook("loose")],
  clean: [
    stackResource,
    ...hooks.resources,
    webhook("auth", onHooks),
    webhook("prints", {
      ...onHooks,
      channel: "prints",
      filters: [
        { key: "activity.name", value: "fingerprint" },
        { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
      ],
    }),
    foreignResource("verification-files"),
  ],
} satisfies Record<string, EngineResource[]>;

function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (record[specialSigKey] === specialSecretSig) return revealed(record.value);
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, revealed(v)]));
}

/**
 * The resources as @pulumi/policy hands them to validateStack: secrets revealed, props behind its
 * unknown-checking proxy, parent and dependencies linked to the resource objects.
 */
export function policyResources(engine: readonly EngineResource[]): PolicyModule.PolicyResource[] {
  const { unknownCheckingProxy } = require("@pulumi/policy") as typeof PolicyModule;
  const resources = engine.map(
    (r): PolicyModule.PolicyResource => ({
      type: r.type,
      urn: r.urn,
      name: r.name,
      props: unknownCheckingProxy(revealed(r.properties)),
      opts: {
        protect: false,
        ignoreChanges: [],
        aliases: [],
        customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
        additionalSecretOutputs: [],
        ...(r.deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace: r.deleteBeforeReplace }),
        ...(r.parent ? { parent: r.parent } : {}),
      },
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    }),
  );
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const linked = (urns: readonly string[] = []) => urns.flatMap((u) => byUrn.get(u) ?? []);
  engine.forEach((r, i) => {
    const resource = resources[i]!;
    resource.parent = r.parent === undefined ? undefined : byUrn.get(r.parent);
    resource.dependencies = linked(r.dependencies);
    resource.propertyDependencies = Object.fromEntries(
      Object.entries(r.propertyDependencies ?? {}).map(([k, urns]) => [k, linked(urns)]),
    );
  });
  return resources;
}

/** What a policy reported through reportViolation. */
export interface Reported {
  readonly message: string;
  readonly urn: string | undefined;
}

/** Runs a stack policy in-process on engine-shaped resources, with the given policy config. */
export async function runStackPolicy(
  policy: PolicyModule.StackValidationPolicy,
  engine: readonly EngineResource[],
  config: Record<string, unknown> = {},
): Promise<Reported[]> {
  const reported: Reported[] = [];
  await policy.validateStack(
    {
      resources: policyResources(engine),
      getConfig: <T>() => config as T,
      stackTags: new Map(),
      notApplicable: () => {
        throw new Error("not applicable");
      },
    },
    (message, urn) => reported.push({ message: String(message), urn }),
  );
  return reported;
}

/** Runs a resource policy in-process on one engine-shaped resource (Analyze gets no dependencies). */
export async function runResourcePolicy(
  policy: PolicyModule.ResourceValidationPolicy,
  engine: EngineResource,
  config: Record<string, unknown> = {},
): Promise<Reported[]> {
  const { type, props, urn, name, opts } = policyResources([engine])[0]!;
  const reported: Reported[] = [];
  const validations = [policy.validateResource ?? []].flat();
  for (const validate of validations) {
    await validate(
      {
        type,
        props,
        urn,
        name,
        opts,
        isType: () => false,
        asType: () => undefined,
        stackTags: new Map(),
        getConfig: <T>() => config as T,
        notApplicable: () => {
          throw new Error("not applicable");
        },
      },
      (message, urn) => reported.push({ message: String(message), urn }),
    );
  }
  return reported;
}

/** Config of each policy, by policy name. */
export type PoliciesConfig = Record<string, Record<string, unknown>>;

/** Runs policies in-process as the engine does: stack policies once, resource policies on each resource. */
export async function runPolicies(
  policies: readonly (PolicyModule.StackValidationPolicy | PolicyModule.ResourceValidationPolicy)[],
  stack: readonly EngineResource[],
  config: PoliciesConfig = {},
): Promise<(Reported & { policy: string })[]> {
  const found: (Reported & { policy: string })[] = [];
  for (const policy of policies) {
    const reported =
      "validateStack" in policy
        ? await runStackPolicy(policy, stack, config[policy.name])
        : (await Promise.all(stack.map((r) => runResourcePolicy(policy, r, config[policy.name])))).flat();
    found.push(...reported.map((r) => ({ policy: policy.name, ...r })));
  }
  return found;
}

/**
 * Records what a program registers under Pulumi's mocks (see mocks.ts), shaped as the engine passes a
 * preview's resources to AnalyzeStack: the serialized inputs, parent, the dependencies the Node SDK sent
 * (after it expanded components in `dependsOn`), property dependencies and deleteBeforeReplace. A
 * component's properties become what it registered as outputs. Call it after setMocks, before the program.
 */
export function recordRegistrations(): () => EngineResource[] {
  const { getMonitor } = require("@pulumi/pulumi/runtime/settings");
  const monitor = getMonitor();
  const recorded = new Map<string, EngineResource>();
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: (err: unknown, res: any) => void) =>
    register(req, (err: unknown, res: any) => {
      if (res) {
        recorded.set(res.getUrn(), {
          type: req.getType(),
          urn: res.getUrn(),
          name: req.getName(),
          properties: req.getObject()?.toJavaScript() ?? {},
          parent: req.getParent() || undefined,
          dependencies: req.getDependenciesList(),
          // The engine leaves out inputs that depend on nothing.
          propertyDependencies: Object.fromEntries(
            req
              .getPropertydependenciesMap()
              .getEntryList()
              .map(([key]: [string]) => [key, req.getPropertydependenciesMap().get(key).getUrnsList()])
              .filter(([, urns]: [string, string[]]) => urns.length > 0),
          ),
          deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
        });
      }
      callback(err, res);
    });
  const registerOutputs = monitor.registerResourceOutputs.bind(monitor);
  monitor.registerResourceOutputs = (req: any, callback: (err: unknown, res: unknown) => void) => {
    const resource = recorded.get(req.getUrn());
    if (resource)
      recorded.set(resource.urn, { ...resource, properties: req.getOutputs()?.toJavaScript() ?? {} });
    registerOutputs(req, callback);
  };
  return () => [...recorded.values()];
}

/** A diagnostic as the served pack answers it. */
interface Diagnostic {
  readonly policyName: string;
  readonly message: string;
  readonly urn: string;
  readonly enforcementLevel: string;
}

/** What GetAnalyzerInfo says about one policy. */
interface PolicyInfo {
  readonly name: string;
  readonly description: string;
  readonly enforcementLevel: string;
  readonly configSchema: { properties: Record<string, any>; required: string[] } | undefined;
}

/** A served policy pack, spoken to over gRPC as the engine speaks to it. */
export interface Analyzer {
  info(): Promise<{ name: string; version: string; policies: PolicyInfo[] }>;
  /** ConfigureAnalyzer: per policy, an enforcement level and config properties. */
  configure(config: Record<string, Record<string, unknown>>): Promise<void>;
  analyzeStack(resources: readonly EngineResource[]): Promise<Diagnostic[]>;
  analyze(resource: EngineResource): Promise<Diagnostic[]>;
  /** Everything the pack printed. */
  output(): string;
  close(): Promise<void>;
  /** performance.now() when the process was spawned, and when it printed its port. */
  readonly startedMs: number;
  readonly readyMs: number;
}

/**
 * Starts the pack in `packDir`. "engine" runs it as the Pulumi CLI does (the `pulumi-analyzer-policy`
 * shim resolves `@pulumi/pulumi/cmd/run-policy-pack` from the pack's folder and runs it there with the
 * engine's address and "."); "node" runs `node <packDir>` from `cwd`. gRPC and protobuf come from the
 * @pulumi/pulumi that the pack's folder resolves, as the pack's server loads them.
 */
export async function startAnalyzer(options: {
  packDir: string;
  launch: "engine" | "node";
  cwd?: string;
}): Promise<Analyzer> {
  const pulumiDir = dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [options.packDir] }));
  const load = (id: string) => require(require.resolve(id, { paths: [pulumiDir] }));
  const grpc = load("@grpc/grpc-js");
  const { Struct } = load("google-protobuf/google/protobuf/struct_pb.js");
  const { Empty } = load("google-protobuf/google/protobuf/empty_pb.js");
  const rpc = require(join(pulumiDir, "proto/analyzer_grpc_pb.js"));
  const proto = require(join(pulumiDir, "proto/analyzer_pb.js"));
  const levels = Object.fromEntries(
    Object.entries(proto.EnforcementLevel as Record<string, number>).map(([k, v]) => [v, k.toLowerCase()]),
  );

  const args =
    options.launch === "engine"
      ? [
          require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [options.packDir] }),
          "127.0.0.1:1",
          ".",
        ]
      : [options.packDir];
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.launch === "engine" ? options.packDir : (options.cwd ?? options.packDir),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stderr!.on("data", (d: Buffer) => {
    printed += d.toString();
  });
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    child.once("exit", (code) => reject(new Error(`policy pack exited with ${code}: ${printed}`)));
  });
  const ready = performance.now();
  child.stdout!.on("data", (d: Buffer) => {
    printed += d.toString();
  });
  const client = new rpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const unary = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) =>
      client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))),
    );
  const diagnostics = (res: any): Diagnostic[] =>
    res.getDiagnosticsList().map((d: any) => ({
      policyName: d.getPolicyname(),
      message: d.getMessage(),
      urn: d.getUrn(),
      enforcementLevel: levels[d.getEnforcementlevel()]!,
    }));
  /** What an AnalyzerResource and an AnalyzeRequest both carry. */
  const described = <T>(message: T, r: EngineResource): T => {
    const m = message as any;
    m.setType(r.type);
    m.setUrn(r.urn);
    m.setName(r.name);
    m.setProperties(Struct.fromJavaScript(r.properties));
    const options = new proto.AnalyzerResourceOptions();
    if (r.deleteBeforeReplace !== undefined) {
      options.setDeletebeforereplace(r.deleteBeforeReplace);
      options.setDeletebeforereplacedefined(true);
    }
    if (r.parent) options.setParent(r.parent);
    m.setOptions(options);
    if (r.provider) {
      const provider = new proto.AnalyzerProviderResource();
      provider.setType(r.provider.type);
      provider.setUrn(r.provider.urn);
      provider.setName(r.provider.name);
      provider.setProperties(Struct.fromJavaScript(r.provider.properties));
      m.setProvider(provider);
    }
    return message;
  };

  return {
    startedMs: started,
    readyMs: ready,
    output: () => printed,
    async info() {
      const res = await unary<any>("getAnalyzerInfo", new Empty());
      return {
        name: res.getName(),
        version: res.getVersion(),
        policies: res.getPoliciesList().map((p: any) => ({
          name: p.getName(),
          description: p.getDescription(),
          enforcementLevel: levels[p.getEnforcementlevel()]!,
          configSchema: p.getConfigschema()
            ? {
                properties: p.getConfigschema().getProperties().toJavaScript(),
                required: p.getConfigschema().getRequiredList(),
              }
            : undefined,
        })),
      };
    },
    async configure(config) {
      const req = new proto.ConfigureAnalyzerRequest();
      for (const [policy, { enforcementLevel, ...properties }] of Object.entries(config)) {
        const c = new proto.PolicyConfig();
        const level = String(enforcementLevel ?? "mandatory").toUpperCase();
        c.setEnforcementlevel(proto.EnforcementLevel[level]);
        c.setProperties(Struct.fromJavaScript(properties));
        req.getPolicyconfigMap().set(policy, c);
      }
      await unary("configure", req);
    },
    async analyzeStack(resources) {
      const req = new proto.AnalyzeStackRequest();
      req.setResourcesList(
        resources.map((r) => {
          const a = described(new proto.AnalyzerResource(), r);
          if (r.parent) a.setParent(r.parent);
          a.setDependenciesList([...(r.dependencies ?? [])]);
          for (const [key, urns] of Object.entries(r.propertyDependencies ?? {})) {
            const deps = new proto.AnalyzerPropertyDependencies();
            deps.setUrnsList([...urns]);
            a.getPropertydependenciesMap().set(key, deps);
          }
          return a;
        }),
      );
      return diagnostics(await unary("analyzeStack", req));
    },
    async analyze(r) {
      return diagnostics(await unary("analyze", described(new proto.AnalyzeRequest(), r)));
    },
    close: () =>
      new Promise((resolve) => {
        client.close();
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
