import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../../sandbox/index";

const example = join(__dirname, "../../../examples/local-receiver");
const SECRET = "local-example-secret-4b7e1f";

/** Resolves with the first line of `child`'s stdout that matches, or rejects when it exits first. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = pattern.exec(line);
      if (match) resolve(match);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before printing ${pattern}`)));
  });
}

let sandbox: Sandbox | undefined;
let receiver: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  receiver?.kill();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("examples/local-receiver, copied alone into a new folder", () => {
  it("gets a delivery to the user's own receiver: the README's Quickstart, step by step", async () => {
    dir = mkdtempSync(join(tmpdir(), "local-receiver-"));
    cpSync(example, dir, { recursive: true });
    // What `npm install <the tarball>` gives it: the package under node_modules.
    symlinkSync(join(__dirname, "../../../node_modules"), join(dir, "node_modules"), "dir");
    const env = { ...process.env, WEBHOOK_SECRET: SECRET, PORT: "0" };
    receiver = spawn(process.execPath, ["receiver.mjs"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const origin = (await lineOf(receiver, /^receiver listening on (http:\S+)/))[1]!;
    // The seed as shipped, with its host sent to wherever the receiver listens in this test.
    const seed = JSON.parse(readFileSync(join(dir, "seed.json"), "utf8"));
    sandbox = await startSandbox({ seed: { ...seed, hosts: { "hooks.local.test": origin } } });
    const token = seed.organizations[0].tokens[0].token;
    const setup = await promisify(execFile)(process.execPath, ["setup.mjs"], {
      cwd: dir,
      env: { ...env, SERVICE_API_TOKEN: token, SERVICE_BASE_URL: sandbox.url },
    });
    expect(setup.stdout).toMatch(/domain hooks\.local\.test verified/);
    expect(setup.stdout).toMatch(/webhook \S+ posts to https:\/\/hooks\.local\.test\/service\/events/);
    const delivered = lineOf(receiver, /^delivery: authentication (\S+) update_counter 1/);
    // As the README's curl line sends it: declared JSON (the sandbox refuses a form post as cross-site).
    const session = await fetch(`${sandbox.url}/_sandbox/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ organization: "local", kind: "authentication" }),
    });
    const { service_id } = (await session.json()) as { service_id: string };
    expect((await delivered)[1]).toBe(service_id);
  });
});
