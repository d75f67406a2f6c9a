/**
 * Regression: the Node.js language-host stand-in outlived its engine (four of them under init after every
 * end-to-end run, started for the YAML programs), and a plugin outlived a language host killed under it.
 * Each now ends once the process that started it is gone. Here each one is started the way the engine
 * starts it (a parent that gives it a stdin pipe and reads its port from stdout), then that parent is
 * killed with SIGKILL, which leaves it no chance to stop anything.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { underFakeEngine } from "../helpers/fake-engine";
import { describeSurvivors, processesMarked, survivorsOf } from "../helpers/marked-processes";

const root = join(__dirname, "../..");
/** How long a process may take to notice that its parent is gone and end. */
const END_BOUND_MS = 10_000;

describe("a process started by the engine, its engine killed with SIGKILL", () => {
  it.each([
    [
      "the Node.js language-host stand-in",
      [process.execPath, join(root, "tools/engine/pulumi-language-nodejs.cjs")],
    ],
    ["the provider plugin", [process.execPath, join(root, "plugin/index.js")]],
  ])("%s ends, and nothing of it remains", async (_name, command) => {
    const { engine, mark, pid, first } = await underFakeEngine([...command, "127.0.0.1:1"], root);
    expect(first).toMatch(/^\d+$/); // its port: it serves
    expect(processesMarked(mark).map((p) => p.pid)).toContain(pid);
    engine.kill("SIGKILL");
    const survivors = await survivorsOf(mark, END_BOUND_MS);
    expect(survivors, describeSurvivors(survivors)).toEqual([]);
  });
});
