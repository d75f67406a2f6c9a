/**
 * Regression: the Node.js language-host stand-in outlived its engine (four of them under init after every
 * end-to-end run, started for the YAML programs), and a plugin outlived a language host killed under it.
 * Each now ends once the process that started it is gone. Here each one is started the way the engine
 * starts it (a parent that gives it a stdin pipe and reads its port from stdout), then that parent is
 * killed with SIGKILL, which leaves it no chance to stop anything.
 */
import { join } from "node:path";
import { describe, it } from "vitest";
import { expectEndsWithItsEngine } from "../../helpers/fake-engine";

const root = join(__dirname, "../../..");

describe("a process started by the engine, its engine killed with SIGKILL", () => {
  it("the Node.js language-host stand-in ends, and nothing of it remains", async () => {
    await expectEndsWithItsEngine(
      [process.execPath, join(root, "tools/engine/pulumi-language-nodejs.cjs")],
      root,
    );
  });
});
