/**
 * `npm run bench:sandbox-start`: how long `npm run sandbox` takes from the command to its greeting (the
 * base URL), npm's own start included, over five runs; the goal is under 2 s with a current build.
 * test/tools/build/build.test.ts starts it the same way and checks what comes before the greeting.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

const RUNS = 5;
const GOAL_MS = 2000;

/** A port that was free a moment ago (the quickstart sandbox must be given a fixed one). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One `npm run sandbox` that has printed its greeting. */
export interface StartedSandbox {
  /** The base URL the greeting names. */
  readonly url: string;
  /** Every line printed before the greeting (npm's echo of the script, and anything the build printed). */
  readonly before: readonly string[];
  /** From the command to the greeting. */
  readonly elapsedMs: number;
  /** Stops the sandbox and the shell npm ran it in. */
  stop(): Promise<void>;
}

/**
 * Runs `npm run sandbox -- --port <a free port>` in `cwd` (the repository by default) and resolves once its
 * greeting is printed.
 */
export async function startSandboxScript(cwd?: string): Promise<StartedSandbox> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["run", "sandbox", "--", "--port", String(port)], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // npm runs the script in a shell: stop the whole group, the sandbox's node included.
  const stop = async () => {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  const before: string[] = [];
  let greeted = false;
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      const greeting = /^service-sandbox listening on (\S+)/.exec(line);
      if (greeting) {
        greeted = true;
        resolve(greeting[1]!);
      } else if (!greeted) before.push(line);
    });
    child.once("exit", (code) => reject(new Error(`npm run sandbox exited with ${code}`)));
  });
  return { url, before, elapsedMs: performance.now() - started, stop };
}

if (import.meta.main) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await startSandboxScript();
    times.push(run.elapsedMs);
    await run.stop();
  }
  times.sort((a, b) => a - b);
  const ms = (t: number) => `${Math.round(t)} ms`;
  console.log(
    `npm run sandbox, command to greeting: median ${ms(times[RUNS >> 1]!)}, max ${ms(times[RUNS - 1]!)} over ${RUNS} runs (goal < ${GOAL_MS} ms with a current build)`,
  );
}
