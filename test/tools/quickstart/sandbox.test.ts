import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { freePort } from "../../../tools/bench/time-sandbox-start.mts";
import { plainApi } from "../../helpers/http";

const root = join(__dirname, "../../..");
const SCRIPT = join(root, "dist/tools/quickstart/sandbox.js");
const TOKEN = "quickstart-token";

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `npm run sandbox`'s script to its end (for the cases where it refuses to start). */
function runToExit(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d;
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d;
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** Starts the script and resolves once it has printed its whole greeting (the Ctrl-C line). */
function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; text: string }> {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      if (line.startsWith("Ctrl-C")) resolve({ child, text: lines.join("\n") });
    });
    child.once("exit", (code) => reject(new Error(`npm run sandbox exited with ${code}: ${stderr}`)));
  });
}

const stopped = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });

describe("npm run sandbox (tools/quickstart/sandbox.ts)", () => {
  it("listens on the port SERVICE_SANDBOX_PORT names, and verifies the quickstart host on that port", async () => {
    const port = await freePort();
    const { child, text } = await start([], { SERVICE_SANDBOX_PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    try {
      expect(text.split("\n")[0]).toBe(`service-sandbox listening on ${url}`);
      // A project-local backend, never `pulumi login --local`, which switches every project on the machine.
      expect(text).toContain("export PULUMI_BACKEND_URL=file://./.pulumi-state");
      expect(text).not.toContain("pulumi login");
      // Pulumi.dev.yaml names 8787: another port comes with the two settings that carry it.
      expect(text).toContain(`pulumi config set service:baseUrl ${url} --stack dev`);
      expect(text).toContain(`'{"hooks.quickstart.test":"${url}/_sandbox/origin"}'`);

      // The seed maps hooks.quickstart.test to the sandbox's own origin route: on this port, not 8787.
      const api = plainApi(url, { token: TOKEN });
      const domain = "hooks.quickstart.test";
      const started = await api("POST", "/v2/domains/start_registration", { body: { domain_name: domain } });
      expect(started.status).toBe(200);
      const dir = join(root, "tools/quickstart/.well-known-files/service_url_registration");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, started.json.verifier);
      writeFileSync(file, started.json.register_token);
      try {
        const finished = await api("POST", "/v2/domains/finish_registration", {
          body: { domain_name: domain, verifier: started.json.verifier },
        });
        expect(finished.status, JSON.stringify(finished.json)).toBe(200);
        await api("POST", `/v2/domains/${finished.json.domain_uuid}/deactivate`);
      } finally {
        rmSync(file, { force: true });
      }
    } finally {
      expect(await stopped(child)).toBe(0);
    }
  });

  it("without a Pulumi CLI on PATH, says how to get one, including building it here", async () => {
    const { child, text } = await start(["--port", String(await freePort())], { PATH: "/nonexistent" });
    try {
      expect(text).toMatch(/The Pulumi CLI is not on PATH/);
      expect(text).toMatch(/build it here with `npm run engine`/);
    } finally {
      expect(await stopped(child)).toBe(0);
    }
  });

  it("takes --port over SERVICE_SANDBOX_PORT", async () => {
    const port = await freePort();
    const { child, text } = await start(["--port", String(port)], { SERVICE_SANDBOX_PORT: "1" });
    try {
      expect(text.split("\n")[0]).toBe(`service-sandbox listening on http://127.0.0.1:${port}`);
    } finally {
      expect(await stopped(child)).toBe(0);
    }
  });

  describe("refuses to start in one line on stderr, with exit code 1,", () => {
    it("when the port is in use, naming it and how to choose another", async () => {
      const busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
      const { port } = busy.address() as { port: number };
      try {
        const run = await runToExit(["--port", String(port)]);
        expect(run.code).toBe(1);
        expect(run.stdout).toBe("");
        const lines = run.stderr.trimEnd().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(String(port));
        expect(lines[0]).toContain("--port <n>");
        expect(lines[0]).toContain("SERVICE_SANDBOX_PORT=<n>");
      } finally {
        await new Promise((resolve) => busy.close(resolve));
      }
    });

    it.each([
      [["--port", "0"], {}, '--port must be a port number from 1 to 65535, not "0"'],
      [
        [],
        { SERVICE_SANDBOX_PORT: "eighty" },
        'SERVICE_SANDBOX_PORT must be a port number from 1 to 65535, not "eighty"',
      ],
      [["--prot", "9000"], {}, "Unknown option '--prot'"],
    ])("for %j %j", async (args, env, message) => {
      const run = await runToExit(args, env);
      expect(run.code).toBe(1);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(message);
    });
  });
});
