import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { webhookLifecycle as webhook } from "../../../provider/webhook/declaration";
import { HOOKS_TOKEN, HOST, webhookArgs } from "../../helpers/fixtures";
import { configureStack } from "../../helpers/runtime";
import { hookBody, registerDomain, startWorld, type World } from "../../helpers/world";

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
