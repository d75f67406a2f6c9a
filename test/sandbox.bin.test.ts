import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

const BIN = join(__dirname, "../dist/sandbox/bin.js");

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
});
