/**
 * `npm run engine` (tools/engine/engine.mts) tells what it does and waits its turn, proven with a fake, slow
 * `go` (SERVICE_ENGINE_GO) and a temporary SERVICE_ENGINE_CACHE: never a real build, never the real cache.
 * - a build says when it starts and how long it should take, then prints a line at least every interval
 *   (test/tools/engine/engine-progress.test.ts: how often, and how a duration reads);
 * - one run at a time holds the folder's lock: a second waits, then reuses what the first built;
 * - the lock of a killed run is taken over, and that run's half-written files are removed;
 * - a warm run deletes and rewrites nothing in the folder, and replaces a changed file in one rename.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockPathOf } from "../../../tools/engine/engine-lock.mts";
import { engineBinDir } from "../../../tools/engine/pulumi-engine.mts";
import { type FakeGo, fakeGo } from "../../helpers/fake-go";

const SCRIPT = join(__dirname, "../../../tools/engine/engine.mts");
/** The progress interval of these runs: short, so that a fake build of a second shows several lines. */
const EVERY_MS = 100;
/** No run here may take longer; a run that hangs fails its test instead of the suite's timeout. */
const RUN_BOUND_MS = 20_000;

interface Run {
  readonly child: ChildProcess;
  /** stderr lines so far, each with the time it arrived. */
  readonly lines: { at: number; text: string }[];
  /** Resolves once `nth` stderr lines (the first by default) have matched, with the last of them. */
  line(pattern: RegExp, nth?: number): Promise<string>;
  /** Resolves when the run ends. */
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

let dir: string;
let cache: string;
let go: FakeGo;
let binDir: string;
const started: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "engine-build-"));
  cache = join(dir, "cache");
  go = fakeGo(dir, 600);
  binDir = engineBinDir({ SERVICE_ENGINE_CACHE: cache });
});
afterEach(() => {
  // Each run is its own process group (detached): a killed run's fake go goes with it.
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group is gone already
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function runEngine(env: NodeJS.ProcessEnv = {}, args: string[] = []): Run {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: {
      ...process.env,
      SERVICE_ENGINE_CACHE: cache,
      SERVICE_ENGINE_PROGRESS_MS: String(EVERY_MS),
      ...go.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.push(child);
  const lines: { at: number; text: string }[] = [];
  const waiters: { pattern: RegExp; nth: number; resolve: (text: string) => void }[] = [];
  const matching = (pattern: RegExp) => lines.filter((l) => pattern.test(l.text));
  let stdout = "";
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (pending + chunk).split("\n");
    pending = parts.pop()!;
    for (const text of parts) {
      lines.push({ at: performance.now(), text });
      for (const waiter of waiters.filter((w) => matching(w.pattern).length >= w.nth)) waiter.resolve(text);
    }
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm run engine ran over ${RUN_BOUND_MS} ms`)),
      RUN_BOUND_MS,
    );
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: lines.map((l) => l.text).join("\n") + pending });
    });
  });
  return {
    child,
    lines,
    done,
    line: (pattern, nth = 1) =>
      new Promise<string>((resolve, reject) => {
        const seen = matching(pattern);
        if (seen.length >= nth) return resolve(seen[nth - 1]!.text);
        waiters.push({ pattern, nth, resolve });
        void done.then(() => reject(new Error(`the run ended without a line matching ${pattern}`)), reject);
      }),
  };
}

/** Every entry of the engine folder with what identifies its content on disk. */
function snapshot(folder: string) {
  return Object.fromEntries(
    readdirSync(folder).map((name) => {
      const stat = statSync(join(folder, name));
      return [name, { ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, mode: stat.mode }];
    }),
  );
}

const INSTALLED = [
  "pulumi",
  "pulumi-resource-pulumi-nodejs",
  "pulumi-language-nodejs",
  "pulumi-language-nodejs-codegen",
  "pulumi-language-python-exec",
  "pulumi-language-python",
  "pulumi-language-go",
  "pulumi-language-yaml",
  "pulumi-language-dotnet",
  "language-hosts.stamp",
];

describe("npm run engine, with a fake slow go and a temporary cache", () => {
  it("says what it builds and how long that takes, then prints progress until it prints the folder", async () => {
    const run = runEngine();
    const { code, stdout, stderr } = await run.done;
    expect(code, stderr).toBe(0);
    const texts = run.lines.map((l) => l.text);
    expect(texts[0]).toMatch(
      /^npm run engine: building Pulumi v3\.\d+\.\d+ into .+: the CLI \(about 5 minutes with an empty Go build cache, .+\), then the language hosts \(.+\)\. A line every 0\.1 s until it is done\.$/,
    );
    const progress = run.lines.filter((l) =>
      /^npm run engine: building the (Pulumi CLI|language hosts): \d+ s so far, \d+ packages compiled$/.test(
        l.text,
      ),
    );
    // Two builds of 0.6 s each, a line every 0.1 s: many lines, and never a long silence.
    expect(progress.length).toBeGreaterThanOrEqual(6);
    expect(texts).toContain(texts.find((t) => /packages compiled$/.test(t) && !/ 0 packages/.test(t)));
    expect(texts.at(-1)).toMatch(/^Pulumi v3\.\d+\.\d+: built in \d+\.\d s\. Put this folder first on PATH/);
    expect(stdout.trim().split("\n").at(-1)).toBe(binDir);
    expect(readdirSync(binDir).sort()).toEqual([...INSTALLED].sort());
    expect(readFileSync(join(binDir, "pulumi"), "utf8")).toBe("fake pulumi 1\n");
    expect(statSync(join(binDir, "pulumi-language-nodejs")).mode & 0o777).toBe(0o755);
    expect(readdirSync(cache)).not.toContain(lockPathOf(binDir).split("/").at(-1));
  });

  it("makes a second run wait for the first, then reuse what it built: one build in all", async () => {
    const first = runEngine();
    await first.line(/building Pulumi/);
    const second = runEngine();
    const waiting = await second.line(/waiting for another `npm run engine`/);
    expect(waiting).toContain(`(pid ${first.child.pid}, since `);
    expect(waiting).toContain(`It holds ${lockPathOf(binDir)}.`);
    const [a, b] = await Promise.all([first.done, second.done]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(b.stderr).not.toContain("building Pulumi");
    expect(b.stderr).toMatch(/already built \(by the run this one waited for\) in/);
    expect(b.stdout.trim()).toBe(a.stdout.trim());
    // One CLI build and one build of the language hosts, both by the first run.
    expect(go.builds()).toHaveLength(2);
  });

  it("takes over the lock of a build killed midway, removes its half-written files and builds", async () => {
    const killed = runEngine();
    // A package compiled means the fake go has written its output file: kill only then, or a loaded
    // machine could kill it before the half-written file this test looks for exists.
    await killed.line(/building the Pulumi CLI: .* [1-9]\d* packages compiled/);
    process.kill(-killed.child.pid!, "SIGKILL");
    await killed.done;
    expect(readFileSync(lockPathOf(binDir), "utf8")).toContain(`"pid":${killed.child.pid}`);
    expect(readdirSync(binDir)).toContain(`.pulumi.partial-${killed.child.pid}`);

    const next = runEngine();
    const { code, stderr } = await next.done;
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(
      `npm run engine: took over the lock of pid ${killed.child.pid}, which is gone (a build stopped midway); building again.`,
    );
    expect(readdirSync(binDir).sort()).toEqual([...INSTALLED].sort());
  });

  it("waits for a live holder of the lock however long it takes, and goes on once it is released", async () => {
    const lock = lockPathOf(binDir);
    expect((await runEngine().done).code).toBe(0);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: "then" }));
    const run = runEngine();
    await run.line(new RegExp(`waiting for another \`npm run engine\` \\(pid ${process.pid}, since then\\)`));
    // Still waiting five intervals later: a live holder is never taken over.
    await run.line(/waiting for another `npm run engine`/, 5);
    expect(run.child.exitCode).toBeNull();
    rmSync(lock);
    const { code } = await run.done;
    expect(code).toBe(0);
  });

  it("leaves every file of a built folder untouched on a warm run: no delete, no rewrite", async () => {
    expect((await runEngine().done).code).toBe(0);
    const before = snapshot(binDir);
    const run = runEngine();
    const { code, stderr } = await run.done;
    expect(code).toBe(0);
    expect(stderr).toMatch(/^Pulumi v3\.\d+\.\d+: already built in \d+\.\d s\./m);
    expect(stderr).not.toContain("building");
    expect(snapshot(binDir)).toEqual(before);
    expect(go.builds()).toHaveLength(2);
  });

  it("replaces a changed file in one rename and leaves the others as they were", async () => {
    expect((await runEngine().done).code).toBe(0);
    const stale = join(binDir, "pulumi-language-nodejs");
    writeFileSync(stale, "an older stand-in\n");
    const before = snapshot(binDir);
    expect((await runEngine().done).code).toBe(0);
    const after = snapshot(binDir);
    expect(readFileSync(stale, "utf8")).toBe(
      readFileSync(join(__dirname, "../../../tools/engine/pulumi-language-nodejs.cjs"), "utf8"),
    );
    expect(after["pulumi-language-nodejs"]!.ino).not.toBe(before["pulumi-language-nodejs"]!.ino);
    const { "pulumi-language-nodejs": _changed, ...rest } = after;
    const { "pulumi-language-nodejs": _was, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
  });

  it("rebuilds with --force and replaces only the binaries whose bytes changed", async () => {
    expect((await runEngine().done).code).toBe(0);
    const before = snapshot(binDir);
    expect((await runEngine({}, ["--force"]).done).code).toBe(0);
    // The same sources build the same bytes: nothing moves.
    expect(snapshot(binDir)).toEqual(before);
    expect((await runEngine({ FAKE_GO_CONTENT: "2" }, ["--force"]).done).code).toBe(0);
    expect(readFileSync(join(binDir, "pulumi"), "utf8")).toBe("fake pulumi 2\n");
    expect(snapshot(binDir)["pulumi"]!.ino).not.toBe(before["pulumi"]!.ino);
    expect(snapshot(binDir)["pulumi-language-nodejs"]).toEqual(before["pulumi-language-nodejs"]);
  });

  it("says in one line that Go is missing", async () => {
    const { code, stderr } = await runEngine({ SERVICE_ENGINE_GO: join(dir, "no-go-here") }).done;
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /npm run engine: Go is not installed \(no `.*no-go-here` on PATH\)\. Install Go 1\.25/,
    );
  });
});
