/**
 * What `npm run bench:changes` and test/e2e/rotation.test.ts run webhook changes on, while deliveries
 * flow: a sandbox that creates a session every 150 ms, a receiver on 127.0.0.1 (the package's Node
 * handler, whose secrets the program or the bench sets), and the counts of each change from the
 * sandbox's delivery log and the receiver's. Every loop is bounded in count and time.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createNodeHandler, MemoryCounterStore } from "@service/pulumi/receiver";
import { type Sandbox, startSandbox } from "@service/pulumi/sandbox";

const root = join(import.meta.dirname, "../..");

/** The organization, token and webhook host of the stage. */
export const ORGANIZATION = "changes";
export const TOKEN = "changes-token-0123456789";
export const HOST = "hooks.changes.test";
/** The webhook's secret before the rotation, and after it. */
export const OLD_SECRET = "whsec-changes-old-0a1b2c3d4e5f";
export const NEW_SECRET = "whsec-changes-new-6a7b8c9d0e1f";
/** Where the receiver takes its secrets: a path no delivery has. */
const SECRETS_PATH = "/_receiver/secrets";
/** How often the sandbox creates a session. */
export const SESSION_INTERVAL_MS = 150;
/** The most sessions one stage creates: a bound on its loop, above any run's need. */
const MAX_SESSIONS = 20_000;
/** Every third session is changed once more, so that two snapshots of it reach the receiver. */
const UPDATE_EVERY = 3;
/** How long the slow create the changes run with holds `POST /v2/webhooks`. */
export const SLOW_CREATE_MS = 1000;

/** A session the stage created. */
interface Session {
  readonly serviceId: string;
  readonly at: number;
  readonly formFactor: "lightbox" | "microscopic";
}

/** An item the receiver handed to handleItem. */
interface Handled {
  readonly serviceId: string;
  readonly counter: number;
}

/** What one change did to deliveries, counted from the sandbox's delivery log and the receiver's. */
export interface ChangeCounts {
  /** Sessions created from the change's `pulumi up` to the next change's. */
  readonly sessions: number;
  /** Of those, the sessions the webhook's filters select, before and after the change. */
  readonly selected: number;
  /** Selected sessions the receiver accepted at least once. */
  readonly accepted: number;
  /** Selected sessions never accepted. */
  readonly lost: number;
  /** Selected sessions accepted, but only by a retry. */
  readonly late: number;
  /** Deliveries the receiver refused for their signature (401). */
  readonly badSignature: number;
  /** Snapshots delivered again (both webhooks of an overlap): handleItem saw the same counter twice. */
  readonly twice: number;
  /** Snapshots the update_counter guard dropped as stale: answered 200, never handed to handleItem. */
  readonly stale: number;
}

/** The receiver's secrets at each point of the rotation, as SecretRotation gives them. */
export const receiverSecretsAt = (step: 1 | 2 | undefined): string[] =>
  step === undefined ? [OLD_SECRET] : step === 1 ? [NEW_SECRET, OLD_SECRET] : [NEW_SECRET];

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(error);
      }
    });
    req.once("error", reject);
  });
}

/** The stage: start it, point a project at it, then `changesOf` each change. */
export async function startChangesStage() {
  const files = new Map<string, string>();
  const store = new MemoryCounterStore();
  const handled: Handled[] = [];
  const failures: number[] = [];
  const makeHandler = (secrets: readonly string[]) =>
    createNodeHandler({
      secrets,
      store,
      handleItem: (item) => {
        handled.push({ serviceId: item.service_id, counter: item.update_counter });
      },
      // Counted, never printed: a refused delivery's message names no secret, but the bench prints only counts.
      onFailure: (failure) => failures.push(failure.status),
    });
  let handler = makeHandler([OLD_SECRET]);
  let secretsSet = 0;
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === SECRETS_PATH) {
      readJson(req).then(
        (body) => {
          handler = makeHandler((body as { secrets: string[] }).secrets);
          secretsSet += 1;
          res.writeHead(200).end();
        },
        () => res.writeHead(400).end(),
      );
      return;
    }
    if (req.method === "POST") {
      void handler(req, res);
      return;
    }
    req.resume();
    const file = files.get(req.url ?? "");
    res.writeHead(file === undefined ? 404 : 200).end(file ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sandbox: Sandbox = await startSandbox({
    seed: {
      organizations: [
        { name: ORGANIZATION, users: [`${ORGANIZATION}-user`], tokens: [{ token: TOKEN, webhooks: true }] },
      ],
      hosts: { [HOST]: origin },
      settings: { rateLimitPerSecond: 0, deliveryRetryBaseSeconds: 0.25, deliveryMaxSeconds: 30 },
    },
  });

  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { authorization: `Token ${TOKEN}`, "api-version": "2.0", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const start = await api("/v2/domains/start_registration", { domain_name: HOST });
  files.set(new URL(start.url!).pathname, start.register_token!);
  await api("/v2/domains/finish_registration", { domain_name: HOST, verifier: start.verifier });

  const sessions: Session[] = [];
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (sessions.length >= MAX_SESSIONS) return stopSessions();
    const formFactor = sessions.length % 2 === 0 ? "lightbox" : "microscopic";
    const { service_id } = sandbox.upsertSession({
      organization: ORGANIZATION,
      kind: "authentication",
      item: { activity: { form_factor: formFactor } },
    });
    const at = Date.now();
    const earlier = sessions.at(-1);
    sessions.push({ serviceId: service_id, at, formFactor });
    if (earlier && sessions.length % UPDATE_EVERY === 0) {
      sandbox.upsertSession({
        organization: ORGANIZATION,
        kind: "authentication",
        service_id: earlier.serviceId,
        item: { status: { result: { id: "unidentified" } } },
      });
    }
  };
  const stopSessions = () => {
    clearInterval(timer);
    timer = undefined;
  };

  return {
    sandbox,
    /** The stack settings that point a program at the stage (secret ones flagged). */
    settings(): [string, string, boolean?][] {
      return [
        ["service:token", TOKEN, true],
        ["service:baseUrl", sandbox.url],
        ["host", HOST],
        ["receiverAdmin", `${origin}${SECRETS_PATH}`],
        ["webhookSecret", OLD_SECRET, true],
      ];
    },
    /** Sets the receiver's secrets from outside the program, as a receiver deployed apart is updated. */
    setSecrets(secrets: readonly string[]) {
      handler = makeHandler(secrets);
    },
    /** How many times the program's Receiver resource set the secrets. */
    secretsSetByProgram: () => secretsSet,
    /** Starts creating a session every SESSION_INTERVAL_MS, up to MAX_SESSIONS. */
    startSessions() {
      timer ??= setInterval(tick, SESSION_INTERVAL_MS);
    },
    stopSessions,
    /** Where a change's window starts. */
    mark: () => Date.now(),
    /** Holds the next webhook create for SLOW_CREATE_MS: a create that takes time, as a busy API's does. */
    async slowCreate() {
      // One at a time: a change that creates nothing (step two) leaves none armed for the next.
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: "DELETE" });
      sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: SLOW_CREATE_MS });
    },
    /**
     * The counts of the sessions created in [from, to), once the deliveries in flight are answered.
     * `selects` says which sessions the webhook's filters select before and after the change.
     */
    async counts(from: number, to: number, selects: (formFactor: string) => boolean): Promise<ChangeCounts> {
      await sandbox.deliveriesIdle();
      const inWindow = sessions.filter((s) => s.at >= from && s.at < to);
      const ids = new Set(inWindow.map((s) => s.serviceId));
      const selected = inWindow.filter((s) => selects(s.formFactor));
      const attempts = sandbox.deliveries().filter((d) => ids.has(d.service_id));
      const mine = handled.filter((h) => ids.has(h.serviceId));
      const acceptedIds = new Set(mine.map((h) => h.serviceId));
      const firstDelivered = new Map<string, number>();
      for (const d of attempts) {
        if (d.delivered && !firstDelivered.has(d.service_id)) firstDelivered.set(d.service_id, d.attempt);
      }
      const seen = new Set<string>();
      let twice = 0;
      for (const h of mine) {
        const key = `${h.serviceId}:${h.counter}`;
        if (seen.has(key)) twice += 1;
        seen.add(key);
      }
      const accepted = selected.filter((s) => acceptedIds.has(s.serviceId));
      return {
        sessions: inWindow.length,
        selected: selected.length,
        accepted: accepted.length,
        lost: selected.length - accepted.length,
        late: accepted.filter((s) => (firstDelivered.get(s.serviceId) ?? 1) > 1).length,
        badSignature: attempts.filter((d) => d.status === 401).length,
        twice,
        stale: attempts.filter((d) => d.delivered).length - mine.length,
      };
    },
    /** Deliveries the receiver refused for their signature, over the whole run. */
    badSignatures: () => failures.filter((status) => status === 401).length,
    async close() {
      stopSessions();
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ChangesStage = Awaited<ReturnType<typeof startChangesStage>>;

/** What a change needs of a Pulumi project: its folder, and a way to run a `pulumi` command in it. */
export interface ChangesProject {
  readonly dir: string;
  run(args: readonly string[]): Promise<{ readonly stdout: string }>;
}

/** Sets `settings` on the project's stack in one command (secret ones encrypted). */
const configure = (project: ChangesProject, settings: readonly (readonly [string, string, boolean?])[]) =>
  project.run([
    "config",
    "set-all",
    ...settings.flatMap(([key, value, secret]) => [secret ? "--secret" : "--plaintext", `${key}=${value}`]),
  ]);

/** One change of the webhook: the settings it sets, and the filters in force around it. */
export interface Change {
  readonly name: string;
  readonly settings: readonly [string, string, boolean?][];
  /** Whether the webhook's filters select a session of this form factor both before and after the change. */
  readonly selects: (formFactor: string) => boolean;
  /** The rotation step it is at, for a receiver deployed apart (set by the bench before the update). */
  readonly step?: 1 | 2;
}

const everything = () => true;
const lightbox = (formFactor: string) => formFactor === "lightbox";

/** The two steps of the rotation. */
export const ROTATION: readonly Change[] = [
  {
    name: "rotation step one",
    settings: [
      ["webhookSecret", NEW_SECRET, true],
      ["oldWebhookSecret", OLD_SECRET, true],
      ["rotationStep", "1"],
    ],
    selects: everything,
    step: 1,
  },
  { name: "rotation step two", settings: [["rotationStep", "2"]], selects: everything, step: 2 },
];

/** The rotation, then a channel, a filters and an endpoint change, in turn. */
export const CHANGES: readonly Change[] = [
  ...ROTATION,
  { name: "channel", settings: [["channel", "orders-v2"]], selects: everything, step: 2 },
  { name: "filters", settings: [["formFactor", "lightbox"]], selects: lightbox, step: 2 },
  { name: "endpoint move", settings: [["path", "/service/events-v2"]], selects: lightbox, step: 2 },
];

/** The settings of the webhook before any change. */
export const START: readonly [string, string][] = [
  ["path", "/service/events"],
  ["channel", "orders"],
  ["formFactor", ""],
];

/** Points `project` at `stage`, with the webhook's first settings, and creates it. */
export async function firstUp(stage: ChangesStage, project: ChangesProject, deleteBeforeReplace: boolean) {
  await project.run(["stack", "init", "dev"]);
  await configure(project, [
    ...stage.settings(),
    ...START,
    ["deleteBeforeReplace", String(deleteBeforeReplace)],
  ]);
  await project.run(["up", "--yes", "--skip-preview"]);
}

/** What review said of the change, read from its JSON. */
export interface Prediction {
  /** "create-before-delete", "delete-before-replace", or "no replace". */
  readonly order: string;
  /** "step one", "step two", or "not a rotation". */
  readonly rotation: string;
}

/** Runs `service-pulumi review --format json` of this repository's build on a preview's JSON. */
async function review(previewFile: string): Promise<Prediction> {
  const child = spawn(
    process.execPath,
    [join(root, "dist/provider/cli/main.js"), "review", "--format", "json", previewFile],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const status = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (status !== 0) throw new Error(`service-pulumi review of ${previewFile} exited ${status}`);
  const stacks = (
    JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      organizations: {
        stacks: { changes: { kind: string; order?: string }[]; rotations: { step: number | null }[] }[];
      }[];
    }
  ).organizations.flatMap((o) => o.stacks);
  const order = stacks.flatMap((s) => s.changes).find((c) => c.kind === "webhook")?.order ?? "no replace";
  const step = stacks.flatMap((s) => s.rotations).find((r) => r.step !== null)?.step;
  return { order, rotation: step === 1 ? "step one" : step === 2 ? "step two" : "not a rotation" };
}

/** One row of the table: a change, what review said of it, and its counts. */
export interface ChangeRow extends ChangeCounts {
  readonly change: string;
  /** Undefined when the change ran without a review. */
  readonly predicted: Prediction | undefined;
}

/**
 * Runs `changes` on `project` in turn while sessions flow, each `pulumi up` with a slow create, and
 * counts each from its `pulumi up` to the next's. `receiverApart`: the bench sets the receiver's secrets
 * before each update (a receiver deployed apart from the program); otherwise the program's own Receiver
 * resource does. `review`: before each update, `pulumi preview --json --show-sames` is reviewed.
 */
export async function runChanges(
  stage: ChangesStage,
  project: ChangesProject,
  changes: readonly Change[],
  options: { readonly receiverApart: boolean; readonly review: boolean },
): Promise<ChangeRow[]> {
  const windows: { change: Change; from: number; predicted: Prediction | undefined }[] = [];
  stage.startSessions();
  for (const change of changes) {
    await configure(project, change.settings);
    let predicted: Prediction | undefined;
    if (options.review) {
      const file = join(project.dir, `preview-${windows.length}.json`);
      writeFileSync(file, (await project.run(["preview", "--json", "--show-sames"])).stdout);
      predicted = await review(file);
    }
    if (options.receiverApart) stage.setSecrets(receiverSecretsAt(change.step));
    await stage.slowCreate();
    windows.push({ change, from: stage.mark(), predicted });
    await project.run(["up", "--yes", "--skip-preview"]);
  }
  const end = stage.mark();
  stage.stopSessions();
  const rows: ChangeRow[] = [];
  for (const [i, { change, from, predicted }] of windows.entries()) {
    const to = windows[i + 1]?.from ?? end;
    rows.push({ change: change.name, predicted, ...(await stage.counts(from, to, change.selects)) });
  }
  return rows;
}
