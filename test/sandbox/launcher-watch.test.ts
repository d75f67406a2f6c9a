/**
 * Regression: killing `npx service-sandbox` left its node child listening on the port. npx runs the bin
 * through a shell (npm exec → sh -c → node): SIGTERM ended npm and the shell and orphaned node; SIGKILL
 * left the shell waiting on node. The bin now stops with its launcher (sandbox/launcher-watch.ts).
 * Run here as a user runs it: `npx service-sandbox` in a project whose node_modules/.bin links it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeSurvivors,
  killAll,
  newProcessMark,
  PROCESS_MARK,
  processesMarked,
  survivorsOf,
} from "../helpers/marked-processes";

const root = join(__dirname, "../..");
const BIN = join(root, "dist/sandbox/bin.js");
/** How long the bin may take to notice that its launcher is gone and close the port. */
const STOP_BOUND_MS = 10_000;

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "sandbox-npx-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "infra", private: true }));
  // What `npm install @service/pulumi` makes of the package's bin: a link in node_modules/.bin to an
  // executable dist/sandbox/bin.js.
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  mkdirSync(join(project, "node_modules/@service"));
  symlinkSync(root, join(project, "node_modules/@service/pulumi"), "dir");
  symlinkSync("../@service/pulumi/dist/sandbox/bin.js", join(project, "node_modules/.bin/service-sandbox"));
  chmodSync(BIN, 0o755);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Starts `npx service-sandbox --port 0` with a mark of its own, and waits for its URL. */
async function startWithNpx(): Promise<{ npx: ChildProcess; port: number; mark: string }> {
  const mark = newProcessMark();
  const npx = spawn("npx", ["--no-install", "service-sandbox", "--port", "0"], {
    cwd: project,
    env: { ...process.env, [PROCESS_MARK]: mark },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from npx service-sandbox: ${out}`)), 20_000);
    npx.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
    npx.stderr!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    npx.once("exit", (code) => reject(new Error(`npx service-sandbox exited ${code}: ${out}`)));
  });
  return { npx, port, mark };
}

/** Whether something accepts a connection on the port now. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Polls until the port refuses connections or the bound passes; true when it closed. */
async function portClosesWithin(port: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (await listening(port)) {
    if (performance.now() >= deadline) return false;
    await sleep(100);
  }
  return true;
}

describe("npx service-sandbox, its parent killed", () => {
  it.each(["SIGTERM", "SIGKILL"] as const)(
    "%s: the port closes and no process of it remains",
    async (signal) => {
      const { npx, port, mark } = await startWithNpx();
      try {
        // npx, the shell it runs the bin through, and node: all carry the mark.
        expect(processesMarked(mark).map((p) => p.command)).toEqual(
          expect.arrayContaining([expect.stringMatching(/node .*service-sandbox --port 0/)]),
        );
        expect(await listening(port)).toBe(true);
        npx.kill(signal);
        expect(await portClosesWithin(port, STOP_BOUND_MS)).toBe(true);
        const survivors = await survivorsOf(mark, STOP_BOUND_MS);
        expect(survivors, describeSurvivors(survivors)).toEqual([]);
      } finally {
        killAll(processesMarked(mark));
      }
    },
    40_000,
  );
});
