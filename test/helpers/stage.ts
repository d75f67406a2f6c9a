/**
 * What a scenario runs against: the sandbox, a loopback origin that serves the verification files a
 * Domain writes, and the stack configuration that points a project at both. Plus the checks every
 * scenario ends with.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import * as registry from "../../provider/registry";
import { type Sandbox, type SeedInput, startSandbox } from "../../sandbox/index";
import { startDirectoryOrigin } from "./directory-origin";
import {
  type Checkpoint,
  PROGRAM_DIR,
  type ProjectOptions,
  type PulumiProject,
  printed,
  pulumiProject,
  webhooksIn,
} from "./engine";
import { HOOKS_TOKEN, HOST, SECRET, testSeed } from "./fixtures";
import { plainApi } from "./http";

export interface Stage {
  readonly sandbox: Sandbox;
  /** The loopback origin standing in for https://HOST. */
  readonly originUrl: string;
  /** Where directoryPublisher writes, and the origin serves from. */
  readonly filesDir: string;
  readonly api: ReturnType<typeof plainApi>;
  /** The webhook uuids active in an organization (the acme token's by default). */
  active(token?: string): Promise<string[]>;
  /** Requests the sandbox answered since `mark()`, by route template. */
  callsSince(mark: number, route?: string): number;
  mark(): number;
  /** Disarms every fault not yet used up. */
  clearFaults(): Promise<void>;
  /** Registers `host` (HOST) for `token`'s organization (acme) out of band, as an earlier stack or a person did. */
  registerHost(host?: string, token?: string): Promise<void>;
  /** Creates a webhook on HOST (on the program's default channel, "orders") out of band, as a person did: its uuid. */
  webhookMadeByHand(channel?: string): Promise<string>;
  /** Register tokens the sandbox handed out: secrets to search for. */
  registerTokens(): string[];
  close(): Promise<void>;
}

export async function startStage(
  settings: SeedInput["settings"] = {},
  seedFor: typeof testSeed = testSeed,
): Promise<Stage> {
  const filesDir = mkdtempSync(join(tmpdir(), "verification-files-"));
  const origin = await startDirectoryOrigin(filesDir);
  const sandbox = await startSandbox({ seed: seedFor(origin.url, settings) });
  const api = plainApi(sandbox.url, { token: HOOKS_TOKEN });
  const seen = new Set<string>();
  return {
    sandbox,
    originUrl: origin.url,
    filesDir,
    api,
    async active(token = HOOKS_TOKEN) {
      const listed = await api("POST", "/v2/search/webhooks", { token, body: { limit: 20 } });
      return (listed.json.items as { webhook_uuid: string }[]).map((w) => w.webhook_uuid);
    },
    mark: () => sandbox.requests().length,
    callsSince: (mark, route) =>
      sandbox
        .requests()
        .slice(mark)
        .filter((r) => route === undefined || r.route === route).length,
    async clearFaults() {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: "DELETE" });
    },
    async registerHost(host = HOST, token = HOOKS_TOKEN) {
      const start = await api("POST", "/v2/domains/start_registration", {
        token,
        body: { domain_name: host },
      });
      const key = new URL(start.json.url as string).pathname;
      mkdirSync(join(filesDir, dirname(key)), { recursive: true });
      writeFileSync(join(filesDir, key), start.json.register_token as string);
      const finish = await api("POST", "/v2/domains/finish_registration", {
        token,
        body: { domain_name: host, verifier: start.json.verifier },
      });
      if (finish.status !== 200) throw new Error(`finish_registration answered ${finish.status}`);
    },
    async webhookMadeByHand(channel = "orders") {
      const created = await api("POST", "/v2/webhooks", {
        body: {
          endpoint: { type: "url", value: `https://${HOST}/service/events` },
          secret_key: SECRET,
          channel,
          filters: [{ key: "activity.name", value: "authentication" }],
        },
      });
      return created.json.webhook_uuid as string;
    },
    registerTokens() {
      for (const registration of sandbox.store.pending.values()) seen.add(registration.registerToken);
      const dir = join(filesDir, "service_url_registration");
      if (existsSync(dir))
        for (const file of readdirSync(dir)) seen.add(readFileSync(join(dir, file), "utf8"));
      return [...seen];
    },
    async close() {
      await sandbox.close();
      await origin.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new project of the e2e program with a `dev` stack pointed at the stage. `settings` are more stack
 * config (values that are not strings are written as JSON, which `config.getObject` reads).
 */
export async function devStack(
  stage: Stage,
  settings: Record<string, unknown> = {},
  options: { readonly stack?: string; readonly token?: string } & Partial<ProjectOptions> = {},
) {
  const project = pulumiProject({ from: PROGRAM_DIR, ...options });
  await project.run(["stack", "init", options.stack ?? "dev"]);
  await configureStack(project, stage, options.token);
  for (const [key, value] of Object.entries(settings)) {
    await project.config(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return project;
}

/** A host of the sandbox's seed that no scenario registers beforehand: a scenario's Domain verifies it. */
export const DOMAIN_HOST = "other.acme.test";

/** devStack, with the program's Domain and webhooks on DOMAIN_HOST, which the stage's origin serves. */
export const domainStack = (
  stage: Stage,
  settings: Record<string, unknown> = {},
  options: Parameters<typeof devStack>[2] = {},
) =>
  devStack(
    stage,
    { host: DOMAIN_HOST, "service:hostOverrides": { [DOMAIN_HOST]: stage.originUrl }, ...settings },
    options,
  );

/** Points the selected stack of a project at the stage: credentials, sandbox, host, secret. */
async function configureStack(project: PulumiProject, stage: Stage, token = HOOKS_TOKEN) {
  await project.config("service:token", token, true);
  await project.config("service:baseUrl", stage.sandbox.url);
  await project.config("service:hostOverrides", JSON.stringify({ [HOST]: stage.originUrl }));
  await project.config("host", HOST);
  await project.config("filesDir", stage.filesDir);
  await project.config("webhookSecret", SECRET, true);
}

/**
 * What must hold after every scenario: every Webhook in state stands for exactly one active webhook,
 * no uuid is shared by two resources, and nothing active is unaccounted for.
 */
export async function expectOneActivePerResource(
  stage: Stage,
  projects: readonly PulumiProject[],
  token?: string,
) {
  const states = await Promise.all(projects.map((p) => p.exported()));
  const inState = states.flatMap((state) => webhooksIn(state).map((r) => r.outputs?.webhookUuid as string));
  expect(new Set(inState).size).toBe(inState.length);
  expect((await stage.active(token)).sort()).toEqual([...inState].sort());
}

/**
 * The lost-create scenario, for a stack of one Webhook "orders": the create's answer is lost before the
 * service applied it, `pulumi up` fails and keeps the webhook pending (init errors in state, nothing
 * active), and the next `pulumi up` creates exactly one.
 */
export async function expectLostCreateSettled(stage: Stage, project: PulumiProject) {
  stage.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503 });
  const failed = await project.run(["up", "--yes"], { allowFailure: true });
  expect(failed.status).not.toBe(0);
  expect(failed.output).toMatch(/orders/);
  expect(failed.output).toMatch(/run `pulumi up` again/i);
  expect(failed.output).not.toMatch(/\[REDACTED\]/);

  const [kept] = webhooksIn(await project.exported());
  expect(kept?.initErrors?.length).toBeGreaterThan(0);
  expect(await stage.active()).toEqual([]);

  await project.run(["up", "--yes"]);
  expect(await stage.active()).toHaveLength(1);
  expect(webhooksIn(await project.exported())[0]?.initErrors ?? []).toEqual([]);
}

/** No planted secret in anything a command printed or any checkpoint stored. */
export function expectNoSecretIn(
  texts: readonly string[],
  stage: Stage,
  tokens: readonly string[] = [HOOKS_TOKEN],
) {
  const planted = [SECRET, ...tokens, ...stage.registerTokens()];
  for (const text of [...texts, ...printed]) {
    for (const secret of planted) expect(text).not.toContain(secret);
  }
}

/**
 * One stage for a file's scenarios, with HOST registered. After each scenario its faults are disarmed and
 * its webhooks deactivated (scenarios share the organization's quota of 10); after the file, nothing it
 * printed or stored holds a planted secret (`tokens`, and the secrets every stage plants). `seedFor` gives
 * the sandbox more organizations than the test seed's. Read `.current` inside tests.
 */
export function useStage(
  tokens: readonly string[] = [HOOKS_TOKEN],
  seedFor: typeof testSeed = testSeed,
): { readonly current: Stage } {
  const holder = { current: undefined as unknown as Stage };
  beforeAll(async () => {
    holder.current = await startStage({}, seedFor);
    await holder.current.registerHost();
  });
  afterEach(async () => {
    await holder.current.clearFaults();
    for (const uuid of await holder.current.active()) {
      await holder.current.api("POST", `/v2/webhooks/${uuid}/deactivate`);
    }
  });
  afterAll(async () => {
    if (!holder.current) return;
    expectNoSecretIn([], holder.current, tokens);
    await holder.current.close();
  });
  return holder;
}

const ENCRYPTED = "1b47061264138c4ac30d75fd1eb44270";
/** Whether a value in `pulumi stack export` is a secret, stored encrypted. */
const isEncrypted = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  Object.values(value).includes(ENCRYPTED) &&
  "ciphertext" in value;

/** Every declared secret input and output in state is stored encrypted, never in plain text. */
export function expectSecretsEncrypted(state: Checkpoint) {
  const byToken = new Map(Object.values(registry).map((d) => [d.pluginToken, d.secrets]));
  const checked: string[] = [];
  for (const resource of state.deployment.resources ?? []) {
    const secrets = byToken.get(resource.type);
    if (!secrets) continue;
    for (const [where, keys] of [
      ["inputs", secrets.inputs],
      ["outputs", secrets.outputs],
    ] as const) {
      for (const key of keys) {
        const value = resource[where]?.[key];
        if (value === undefined) continue;
        expect(isEncrypted(value), `${resource.urn} ${where}.${key}`).toBe(true);
        checked.push(`${resource.type} ${where}.${key}`);
      }
    }
  }
  expect(checked.length).toBeGreaterThan(0);
}
