/**
 * The provider plugin ends once its engine is gone, seen through the engine's gRPC connection: the
 * mechanism that works on Windows too, where a parent pid never changes. Here the plugin's parent is this
 * test, which stays; only the engine's process (the address the plugin was started with) is killed. A call
 * in flight then finishes, up to DRAIN_MS, and a create's attempt note stays for the next run. The parent
 * pid's watch is test/plugin/index.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { DRAIN_MS } from "../../../provider/plugin/lifetime";
import { webhook } from "../../../provider/registry";
import { type DynamicHost, startDynamicHost } from "../../helpers/dynamic-host";
import { engineEndpointProcess } from "../../helpers/fake-engine";
import { HOOKS_TOKEN, HOST, SECRET } from "../../helpers/fixtures";
import { describeSurvivors, newProcessMark, PROCESS_MARK, survivorsOf } from "../../helpers/marked-processes";
import { useRegisteredWorld } from "../../helpers/world";

const ENTRY = join(__dirname, "../../../plugin/index.js");
const URN = `urn:pulumi:dev::infra::${webhook.pluginToken}::orders`;
/** How long the plugin may take to see its engine gone and end, beyond the calls it lets finish. */
const END_BOUND_MS = 3_000;

const worldRef = useRegisteredWorld();
const hosts: DynamicHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

/** The plugin started by this test with the address of an engine of its own; its notes in a new PULUMI_HOME. */
async function pluginWithEngine() {
  const engine = await engineEndpointProcess();
  const mark = newProcessMark();
  const home = mkdtempSync(join(tmpdir(), "service-pulumi-lifetime-home-"));
  const host = await startDynamicHost({
    cwd: process.cwd(),
    entry: ENTRY,
    engineAddress: engine.address,
    env: { SERVICE_RATE_LIMIT: "0", PULUMI_HOME: home, [PROCESS_MARK]: mark },
  });
  hosts.push(host);
  await host.configureProvider({ token: HOOKS_TOKEN, baseUrl: worldRef.current.sandbox.url });
  const notes = join(home, "service-pulumi", "create-attempts");
  /** The attempt notes on disk: one per create sent whose outcome state has not recorded. */
  const attemptNotes = () =>
    existsSync(notes)
      ? readdirSync(notes).map(
          (file) => JSON.parse(readFileSync(join(notes, file), "utf8")) as { pid: number },
        )
      : [];
  return { engine, host, mark, attemptNotes };
}

/** Waits, up to 10 s, until the create has been noted and sent; the sandbox then holds it `delayMs`. */
async function untilNoted(attemptNotes: () => unknown[]): Promise<void> {
  for (let tries = 0; tries < 100 && attemptNotes().length === 0; tries++) await sleep(100);
  expect(attemptNotes()).toHaveLength(1);
}

const inputs = {
  endpoint: `https://${HOST}/service/events`,
  secretKey: SECRET,
  filters: [{ key: "activity.name", value: "authentication" }],
};

describe("the provider plugin, its engine's process killed while the plugin's parent lives", () => {
  it("ends, and nothing of it remains", async () => {
    const { engine, mark } = await pluginWithEngine();
    engine.process.kill("SIGKILL");
    const survivors = await survivorsOf(mark, END_BOUND_MS);
    expect(survivors, describeSurvivors(survivors)).toEqual([]);
  });

  it("lets a create in flight finish first: its answer arrives, then the plugin ends, and the attempt note stays for the next run", async () => {
    const { engine, host, mark, attemptNotes } = await pluginWithEngine();
    const checked = (await host.check(URN, {}, inputs)).inputs;
    worldRef.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 1_500 });
    const created = host.create(URN, checked);
    await untilNoted(attemptNotes);
    engine.process.kill("SIGKILL");
    const { id } = await created;
    const active = await worldRef.current.api("GET", `/v2/webhooks/${id}`);
    expect(active.json).toMatchObject({ webhook_uuid: id });
    const survivors = await survivorsOf(mark, END_BOUND_MS);
    expect(survivors, describeSurvivors(survivors)).toEqual([]);
    // The engine recorded nothing: the note of the plugin's pid (now gone) lets the next create find it.
    expect(attemptNotes()).toEqual([expect.objectContaining({ pid: host.pid })]);
  });

  it(
    "ends DRAIN_MS after, with a create still in flight, and keeps its attempt note",
    async () => {
      const { engine, host, mark, attemptNotes } = await pluginWithEngine();
      const checked = (await host.check(URN, {}, inputs)).inputs;
      worldRef.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: DRAIN_MS + 5_000 });
      const created = host.create(URN, checked).then(
        () => "answered",
        () => "failed",
      );
      await untilNoted(attemptNotes);
      const killed = performance.now();
      engine.process.kill("SIGKILL");
      const survivors = await survivorsOf(mark, DRAIN_MS + END_BOUND_MS);
      expect(survivors, describeSurvivors(survivors)).toEqual([]);
      expect(performance.now() - killed).toBeGreaterThanOrEqual(DRAIN_MS - 500);
      expect(await created).toBe("failed");
      expect(attemptNotes()).toEqual([expect.objectContaining({ pid: host.pid })]);
    },
    DRAIN_MS + 20_000,
  );
});
