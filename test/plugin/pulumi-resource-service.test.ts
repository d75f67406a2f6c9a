/**
 * How the engine starts the provider plugin from the folder a project's Pulumi.yaml lists: it looks for an
 * executable `pulumi-resource-service` there first and runs it as it is. Regression: without one, the
 * engine started the plugin through the Node.js language host, whose plugin runner loads TypeScript and
 * ts-node before the plugin (about 1 s of CPU and 80 MB at every start, on every command).
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

const LAUNCHER = join(__dirname, "../../plugin/pulumi-resource-service");

describe("the provider plugin's folder, as the engine looks into it", () => {
  it("holds an executable pulumi-resource-service that starts the plugin and prints its port", async () => {
    accessSync(LAUNCHER, constants.X_OK);
    // As the engine runs it: the file itself, the engine's address as its argument.
    const child = spawn(LAUNCHER, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("error", reject);
        child.once("exit", (code) => reject(new Error(`the plugin exited with ${code}`)));
      });
      expect(Number(port.trim())).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  });
});
