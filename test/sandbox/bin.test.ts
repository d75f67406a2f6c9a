import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

const BIN = join(__dirname, "../../dist/sandbox/bin.js");

/** Starts the bin and resolves with its first stdout lines once it has printed its URL. */
function start(args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const reader = createInterface({ input: child.stdout! });
    reader.on("line", (line) => {
      lines.push(line);
      if (line.startsWith("admin routes")) resolve({ child, lines });
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
  });
}

const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once("exit", resolve));

describe("the service-sandbox bin", () => {
  it("prints its base URL first, the demo token without --seed, and exits 0 on SIGTERM", async () => {
    const { child, lines } = await start(["--port", "0"]);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(lines[0]!)?.[0];
    expect(url).toBeDefined();
    expect(lines.join("\n")).toContain("sandbox-demo-token");
    const health = await fetch(`${url}/v1/health`, {
      headers: { authorization: "Token sandbox-demo-token", "api-version": "1.4" },
    });
    expect(await health.json()).toEqual({ status: "ok" });
    const exited = exitCode(child);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("loads a seed file and exits 0 on SIGINT", async () => {
    const seed = join(mkdtempSync(join(tmpdir(), "seed-")), "seed.json");
    writeFileSync(
      seed,
      JSON.stringify({
        organizations: [{ name: "acme", users: ["a"], tokens: [{ token: "seeded-token", webhooks: true }] }],
      }),
    );
    const { child, lines } = await start(["--port", "0", "--seed", seed]);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(lines[0]!)![0];
    expect(lines.join("\n")).not.toContain("sandbox-demo-token");
    const res = await fetch(`${url}/v2/search/webhooks`, {
      method: "POST",
      headers: { authorization: "Token seeded-token", "api-version": "2.0" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    const exited = exitCode(child);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  it("refuses a bad --port with usage", async () => {
    const child = spawn(process.execPath, [BIN, "--port", "http"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
    });
    expect(await exitCode(child)).toBe(2);
    expect(err).toMatch(/--port must be a port number/);
  });

  /**
   * Runs the bin until it exits and returns its code and stderr lines. A bin that starts listening
   * instead is stopped at once, so the test fails on its assertions rather than on a timeout.
   */
  async function failedRun(args: string[]): Promise<{ code: number | null; lines: string[] }> {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("listening on")) child.kill("SIGTERM");
    });
    const code = await exitCode(child);
    return { code, lines: err.trimEnd().split("\n") };
  }

  it.each([
    [
      "an organization with no token",
      { organizations: [{ name: "acme", users: ["a"] }] },
      /seed file .*: organizations\.0 \(organization "acme"\) has no token, .* add one to its tokens, such as \{"token": "acme-token", "webhooks": true\}$/,
    ],
    [
      "no organization",
      {},
      /seed file .*: organizations is empty, so no API request can be made: add an organization/,
    ],
  ])(
    "refuses a seed with %s in one line (regression: it started silently)",
    async (_what, content, message) => {
      const seed = join(mkdtempSync(join(tmpdir(), "seed-")), "seed.json");
      writeFileSync(seed, JSON.stringify(content));
      const { code, lines } = await failedRun(["--port", "0", "--seed", seed]);
      expect(code).toBe(2);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    },
  );

  /** Holds 127.0.0.1:`port` until released; if something else already holds it, so much the better. */
  async function hold(port: number): Promise<{ port: number; release(): Promise<void> }> {
    const server: Server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    const address = bound ? (server.address() as { port: number }).port : port;
    return { port: address, release: () => new Promise((r) => (bound ? server.close(() => r()) : r())) };
  }

  it("reports a busy port in one line, naming the port and how to pick another", async () => {
    const held = await hold(0);
    const { code, lines } = await failedRun(["--port", String(held.port)]);
    await held.release();
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^service-sandbox: port ${held.port} on 127\\.0\\.0\\.1 is already in use`),
    );
    expect(lines[0]).toMatch(/--port <n>/);
  });

  it("listens on 8787, the client's default, without --port", async () => {
    const held = await hold(8787);
    const { lines } = await failedRun([]);
    await held.release();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/port 8787 on 127\.0\.0\.1 is already in use/);
  });
});
