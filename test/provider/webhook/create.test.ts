/** Creating a webhook (provider/webhook/create.ts): the plan, reconciling a lost response, and the notes of interrupted creates. */

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import { credentialKey } from "../../../provider/lifecycle/clients";
import { activeWebhooks } from "../../../provider/lifecycle/listings";
import { resolve } from "../../../provider/settings/resolve";
import {
  awaitCandidates,
  candidates,
  candidatesIn,
  createKey,
  type WebhookRecord as ListedWebhook,
  parseInputs,
  planCreate,
  RECONCILE_ENV,
  reconcileWindowMs,
} from "../../../provider/webhook/create";
import { webhookLifecycle } from "../../../provider/webhook/declaration";
import { claim, identityOf } from "../../../provider/webhook/resource";
import { HOOKS_TOKEN, HOST, OTHER_TOKEN, SECRET, webhookArgs } from "../../helpers/fixtures";
import { configureStack, providerSettings, underProvider } from "../../helpers/runtime";
import { clientOf, clock, hook, scripted, useScriptedServers } from "../../helpers/scripted-server";
import { hookBody, registerDomain, startWorld, type World } from "../../helpers/world";

const webhook = underProvider(webhookLifecycle);

describe("the plan", () => {
  /**
   * A Webhook create is planned once (create-plan.ts): every step of the create acts on what the plan holds,
   * so the plan must hold exactly what the inputs decide, whichever way the program spelled them.
   */

  const BASE_URL = "http://127.0.0.1:9";
  const ENDPOINT = `https://${HOST}/service/events`;

  const plan = (overrides: Record<string, unknown> = {}, provider: unknown = "provider code") =>
    planCreate(providerSettings(), parseInputs(webhookArgs(overrides)), provider);

  beforeEach(() => {
    configureStack(BASE_URL, HOOKS_TOKEN);
  });

  describe("a create's plan", () => {
    it("holds the identity, the wire body and the key that the inputs decide", () => {
      const planned = plan({
        filters: [
          { key: "activity.form_factor", values: ["microscopic", "lightbox"] },
          { key: "activity.name", values: ["authentication"] },
        ],
      });
      const identity = {
        endpoint: ENDPOINT,
        channel: "default",
        filters: [
          { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
          { key: "activity.name", values: ["authentication"] },
        ],
      };
      expect(planned.identity).toEqual(identity);
      expect(planned.body).toEqual({
        endpoint: { type: "url", value: ENDPOINT },
        secret_key: SECRET,
        channel: "default",
        filters: [
          { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
          { key: "activity.name", value: "authentication" },
        ],
      });
      expect(planned.key).toEqual({
        credentials: credentialKey(planned.client),
        identity: JSON.stringify(identity),
      });
      expect(planned.provider).toBe("provider code");
      expect(planned.client.options).toMatchObject({ token: HOOKS_TOKEN, baseUrl: BASE_URL });
    });

    it("keys alike the creates the service could not tell apart, and apart all others", () => {
      const first = plan({ filters: [{ key: "activity.name", values: ["authentication"] }] });
      expect(plan({ channel: "default" }).key).toEqual(first.key);
      expect(plan({ channel: "orders" }).key).not.toEqual(first.key);
      expect(plan({ endpoint: `${ENDPOINT}/other` }).key).not.toEqual(first.key);
      const otherCredentials = plan({ connection: { token: OTHER_TOKEN, baseUrl: BASE_URL } });
      expect(otherCredentials.key.identity).toBe(first.key.identity);
      expect(otherCredentials.key.credentials).not.toBe(first.key.credentials);
      expect(otherCredentials.key).toEqual(createKey(otherCredentials.client, first.identity));
    });

    it("speaks the API version the inputs name", () => {
      expect(plan({ apiVersion: "1.4" }).client.apiVersion).toBe("1.4");
      expect(plan().client.apiVersion).toBe("2.0");
    });
  });
});

/**
 * Reconciling a lost webhook create (provider/webhook/create.ts): which listed webhooks it may have
 * made, the window it waits for them, and re-listing until one appears within that window.
 */
describe("reconciliation", () => {
  const ENDPOINT = "https://hooks.example.com/events";
  const FILTERS = [{ key: "activity.name", value: "authentication" }];

  beforeEach(() => {
    setProcessContext(new ProcessContext());
  });

  describe("reconciliation candidates", () => {
    const identity = identityOf({ endpoint: ENDPOINT, channel: "default", filters: FILTERS });
    const since = 1_700_000_000_000;
    const listed = (
      uuid: string,
      createdMs: number | undefined,
      overrides: Partial<ListedWebhook> = {},
    ): ListedWebhook => ({
      webhookUuid: uuid,
      endpoint: ENDPOINT,
      channel: "default",
      filters: FILTERS,
      owner: { organization: "acme", username: "" },
      createTime: createdMs === undefined ? undefined : { display: "", epoch: createdMs / 1000 },
      ...overrides,
    });

    it("are the matching webhooks created since the attempt, within the clock margin, that nobody stands for", () => {
      claim("claimed");
      const hooks = [
        listed("margin", since - 2_000),
        listed("too-old", since - 3_000),
        listed("undated", undefined),
        listed("claimed", since),
        listed("excluded", since),
        listed("other-channel", since, { channel: "orders" }),
        listed("reordered", since, { filters: [{ key: "activity.name", values: ["authentication"] }] }),
      ];
      expect(
        candidatesIn(hooks, { identity, since, exclude: ["excluded"] }).map((h) => h.webhookUuid),
      ).toEqual(["margin", "undated", "reordered"]);
    });

    it.each([
      [undefined, 30_000, 5_000],
      ["10", 10_000, 5_000],
      ["2", 2_000, 2_000],
      ["0", 0, 0],
      ["-1", 30_000, 5_000],
      ["soon", 30_000, 5_000],
    ])(
      "re-list for %s seconds configured: %i ms after a lost answer, %i ms after a 5xx",
      (value, lost, answered) => {
        if (value !== undefined) vi.stubEnv(RECONCILE_ENV, value);
        expect(RECONCILE_ENV).toBe("SERVICE_RECONCILE_SECONDS");
        expect(reconcileWindowMs(false, resolve({}))).toBe(lost);
        expect(reconcileWindowMs(true, resolve({}))).toBe(answered);
      },
    );
  });

  describe("re-listing after a lost create", () => {
    useScriptedServers();

    const identity = identityOf({ endpoint: "https://hooks.example.com/e", channel: "default", filters: [] });
    /** Lists nothing `emptyFor` times, then a webhook matching `identity`, created now. */
    const listing = (emptyFor: number) =>
      scripted((_r, index) => ({
        items:
          index < emptyFor
            ? []
            : [{ ...hook(1), channel: "default", create_time: { display: "", epoch: clock.now() / 1000 } }],
      }));

    it("lists afresh at growing intervals until the webhook appears, keeping the time it was given", async () => {
      const server = await listing(2);
      const client = clientOf(server.url);
      const since = clock.now() - 1_000;
      const { found, since: kept } = await awaitCandidates(
        { client, identity, exclude: [], sentAtLocal: clock.now(), since },
        30_000,
      );
      expect(found?.map((h) => h.webhookUuid)).toEqual(["hook-1"]);
      expect(kept).toBe(since);
      expect(server.seen).toHaveLength(3);
      expect(clock.slept).toEqual([1_000, 2_000]);
    });

    it("keeps the time it was given when no listing succeeds at all", async () => {
      const server = await scripted((_r, _i, res) => {
        res.writeHead(500).end();
      });
      const since = clock.now() - 1_000;
      const result = await awaitCandidates(
        { client: clientOf(server.url), identity, exclude: [], sentAtLocal: clock.now(), since },
        0,
      );
      expect(result).toEqual({ found: undefined, since });
    });

    it("looks at a fresh listing, not one cached before the create", async () => {
      const server = await listing(1);
      const client = clientOf(server.url);
      expect(await activeWebhooks(client)).toEqual([]);
      const found = await candidates({ client, identity, exclude: [], since: clock.now() - 1_000 });
      expect(found.map((h) => h.webhookUuid)).toEqual(["hook-1"]);
    });

    it("stops at the end of its window, having waited no longer than the window", async () => {
      const server = await listing(10);
      const { found } = await awaitCandidates(
        { client: clientOf(server.url), identity, exclude: [], sentAtLocal: clock.now() },
        2_500,
      );
      expect(found).toEqual([]);
      expect(clock.slept).toEqual([1_000, 1_500]);
      expect(server.seen).toHaveLength(3);
    });
  });
});

describe("attempt notes", () => {
  /**
   * The note a create leaves under PULUMI_HOME until its outcome is known is found by its file name, which
   * a killed process of an earlier version of this package may have written: the name is a contract, like
   * the state's shape. Written here by hand, as those versions name it (sha256 of the service and
   * credentials, then of the identity as JSON), so that a change of how a create is keyed cannot lose it.
   */
  let world: World;
  let home: string;

  afterEach(async () => {
    await world.close();
    rmSync(home, { recursive: true, force: true });
  });

  const creates = () => world.sandbox.requests().filter((r) => r.route === "/v2/webhooks").length;

  /** The note's path as every earlier version names it. */
  function notePath(): string {
    const credentials = `${world.sandbox.url}\u0000${HOOKS_TOKEN}\u00002.0`;
    const identity = {
      endpoint: `https://${HOST}/service/events`,
      channel: "orders",
      filters: [{ key: "activity.name", values: ["authentication"] }],
    };
    const name = createHash("sha256").update(credentials).update(JSON.stringify(identity)).digest("hex");
    return join(home, "service-pulumi", "create-attempts", `${name}.json`);
  }

  /** The pid of a process that has ended. */
  const endedPid = () => spawnSync(process.execPath, ["-e", ""]).pid;

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), "pulumi-home-"));
    vi.stubEnv("PULUMI_HOME", home);
    vi.stubEnv("SERVICE_RATE_LIMIT", "0");
    world = await startWorld();
    await registerDomain(world);
    configureStack(world.sandbox.url, HOOKS_TOKEN);
  });

  describe("a create noted by a process that ended before it knew the outcome", () => {
    it("is found by its note's name: the next create adopts its webhook and sends none", async () => {
      const note = notePath();
      mkdirSync(join(note, ".."), { recursive: true });
      writeFileSync(note, JSON.stringify({ since: Date.now() - 1_000, pid: endedPid() }));
      const landed = await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: "orders" }) });
      const before = creates();

      const { inputs } = await webhook.check({}, webhookArgs({ channel: "orders" }));
      const { id } = await webhook.create(inputs);

      expect(id).toBe(landed.json.webhook_uuid);
      expect(creates()).toBe(before);
      expect(existsSync(note)).toBe(false);
    });
  });
});

describe("an interrupted create", () => {
  /**
   * A provider process killed while its create was held by the service (a second Ctrl-C, a killed CI job):
   * the engine only keeps a pending operation and asks the next run to create the resource again. The next
   * create must find the webhook the killed one made, not make a second (regression: it made a second,
   * found under the real engine by test/e2e/faults.test.ts).
   */
  const root = join(__dirname, "../../..");
  let world: World;
  let home: string;

  const props = () => ({
    __provider: "exports.handler = function () {}",
    ...webhookArgs({ channel: "orders" }),
  });

  const creates = () => world.sandbox.requests().filter((r) => r.route === "/v2/webhooks").length;

  /**
   * A provider process of the built package that sends one create and is killed with the create applied
   * but its outcome unknown to it: the service applies the create and answers 503, and the re-listing that
   * would settle it is held, as when the process dies at the worst moment.
   */
  async function killedWhileCreating(): Promise<void> {
    world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503, apply: true });
    world.sandbox.addFault({ method: "POST", path: "/v2/search/webhooks", delayMs: 10_000 });
    const script = `
    const runtime = require(${JSON.stringify(join(root, "dist/runtime/index.js"))});
    const config = { "service:token": ${JSON.stringify(HOOKS_TOKEN)}, "service:baseUrl": process.env.BASE_URL };
    const webhook = runtime.storedProvider("webhook", runtime.CONTRACT, "");
    webhook.configure({ config: { get: (key) => config[key] } })
      .then(() => webhook.check({}, JSON.parse(process.env.PROPS)))
      .then(({ inputs }) => webhook.create(inputs));
  `;
    const child = spawn(process.execPath, ["-e", script], {
      env: { ...process.env, BASE_URL: world.sandbox.url, PROPS: JSON.stringify(props()), PULUMI_HOME: home },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // The sandbox logs a request once it has answered it; the host gives no other event to wait on.
    for (let i = 0; i < 400 && !world.sandbox.requests().some((r) => r.route === "/v2/webhooks"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill("SIGKILL");
    await exited;
  }

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), "pulumi-home-"));
    vi.stubEnv("PULUMI_HOME", home);
    vi.stubEnv("SERVICE_RATE_LIMIT", "0");
    vi.stubEnv("SERVICE_RECONCILE_SECONDS", "5");
    world = await startWorld();
    await registerDomain(world);
    configureStack(world.sandbox.url, HOOKS_TOKEN);
  });

  afterEach(async () => {
    await world.close();
    rmSync(home, { recursive: true, force: true });
  });

  describe("a create whose provider process was killed while the service held it", () => {
    it("is found by the next create of the same webhook, which sends none of its own", async () => {
      await killedWhileCreating();
      const before = creates();
      const { inputs } = await webhook.check({}, props());
      const { id } = await webhook.create(inputs);
      const active = (await world.api("POST", "/v2/search/webhooks", { body: {} })).json.items as {
        webhook_uuid: string;
      }[];
      expect(active.map((w) => w.webhook_uuid)).toEqual([id]);
      expect(creates() - before).toBe(0);
    });
  });
});
