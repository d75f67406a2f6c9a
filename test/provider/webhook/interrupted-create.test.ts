import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { webhookLifecycle as webhook } from "../../../provider/webhook/declaration";
import { HOOKS_TOKEN, webhookArgs } from "../../helpers/fixtures";
import { configureStack } from "../../helpers/runtime";
import { registerDomain, startWorld, type World } from "../../helpers/world";

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
    runtime.configure({ get: (key) => config[key] });
    const webhook = runtime.storedProvider("webhook", runtime.CONTRACT, "");
    webhook.check({}, JSON.parse(process.env.PROPS)).then(({ inputs }) => webhook.create(inputs));
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
