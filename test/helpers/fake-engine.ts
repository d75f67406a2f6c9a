/**
 * A fake engine for lifetime tests: it starts a plugin or language host as the engine does (a stdin pipe,
 * its port read from the first line of its stdout) and stays until it is killed. Every process of it
 * carries a mark of its own (test/helpers/marked-processes.ts), so that a survivor is found by name.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, expect } from "vitest";
import {
  describeSurvivors,
  killAll,
  newProcessMark,
  PROCESS_MARK,
  processesMarked,
  survivorsOf,
} from "./marked-processes";

/** The fake engine's program: prints the child's pid and first line, then waits to be killed. */
const FAKE_ENGINE = String.raw`
const { spawn } = require("node:child_process");
const [command, ...args] = JSON.parse(process.argv[1]);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
child.stdout.once("data", (first) => {
  process.stdout.write(JSON.stringify({ pid: child.pid, first: String(first).trim() }) + "\n");
});
setInterval(() => {}, 60_000);
`;

/** What a test started under a fake engine. */
export interface UnderFakeEngine {
  /** The fake engine: kill it to see its child end. */
  readonly engine: ChildProcess;
  /** The mark of every process of this start. */
  readonly mark: string;
  /** The child's pid. */
  readonly pid: number;
  /** The first line the child printed: a plugin's or a language host's port. */
  readonly first: string;
}

const marks: string[] = [];
afterEach(() => {
  for (const mark of marks.splice(0)) killAll(processesMarked(mark));
});

/** Starts `command` under a fake engine in `cwd`; whatever remains of it is killed after the test. */
export async function underFakeEngine(command: readonly string[], cwd: string): Promise<UnderFakeEngine> {
  const mark = newProcessMark();
  marks.push(mark);
  const engine = spawn(process.execPath, ["-e", FAKE_ENGINE, JSON.stringify(command)], {
    cwd,
    env: { ...process.env, [PROCESS_MARK]: mark },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const started = await new Promise<{ pid: number; first: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command.join(" ")} printed no port`)), 20_000);
    engine.stdout!.once("data", (line: Buffer) => {
      clearTimeout(timer);
      resolve(JSON.parse(String(line)));
    });
    engine.once("exit", (code) => reject(new Error(`the fake engine exited ${code}`)));
  });
  return { engine, mark, ...started };
}

/** An engine's gRPC endpoint alone: an HTTP/2 server on 127.0.0.1 that prints its port, then waits. */
const ENGINE_ENDPOINT = String.raw`
const server = require("node:http2").createServer();
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\n"));
`;

/**
 * An engine's address served by a process of its own, which a test kills to see a plugin started with
 * that address (by the test, its parent, which stays) end; killed after the test if it is still there.
 */
export async function engineEndpointProcess(): Promise<{
  readonly address: string;
  readonly process: ChildProcess;
}> {
  const mark = newProcessMark();
  marks.push(mark);
  const child = spawn(process.execPath, ["-e", ENGINE_ENDPOINT], {
    env: { ...process.env, [PROCESS_MARK]: mark },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the engine endpoint printed no port in 20 s")), 20_000);
    child.stdout!.once("data", (line: Buffer) => {
      clearTimeout(timer);
      resolve(String(line).trim());
    });
    child.once("exit", (code) => reject(new Error(`the engine endpoint exited ${code}`)));
  });
  return { address: `127.0.0.1:${port}`, process: child };
}

/** How long a process may take to notice that its parent is gone and end. */
const END_BOUND_MS = 10_000;

/**
 * Starts `command` under a fake engine, sees it serve, kills the engine with SIGKILL (which leaves it no
 * chance to stop anything), and expects every process of the start to end within END_BOUND_MS.
 */
export async function expectEndsWithItsEngine(command: readonly string[], cwd: string): Promise<void> {
  const { engine, mark, pid, first } = await underFakeEngine([...command, "127.0.0.1:1"], cwd);
  expect(first).toMatch(/^\d+$/); // its port: it serves
  expect(processesMarked(mark).map((p) => p.pid)).toContain(pid);
  engine.kill("SIGKILL");
  const survivors = await survivorsOf(mark, END_BOUND_MS);
  expect(survivors, describeSurvivors(survivors)).toEqual([]);
}
