/**
 * `npm run bench:engine`: this package under the real Pulumi engine (build it first with `npm run engine`),
 * against the sandbox, for two stacks: the quickstart (a Domain and two webhooks) and a stack of ten
 * webhooks plus a Domain. For each command a user runs it prints:
 * - the command's wall time;
 * - this package's share of it, two ways, summed over the provider processes the command started (a probe
 *   loaded into them logs each call): the span, from the process's start to its last answer, which also
 *   counts the host's own start and every wait for the engine; and the busy time, while at least one call
 *   into this package was in flight (its API calls included);
 * - the API calls the sandbox answered, and how many of them were creates or listings.
 * Goals: 0 calls on an unchanged preview; 1 listing per kind per organization on refresh; 10 creates in
 * at most 11 calls; our share at most 10 % of `pulumi up` for ten webhooks.
 *
 * `--rounds N` (default 3) repeats each stack and prints the median.
 */
import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { parseArgs } from "node:util";
import { type Sandbox, startSandbox } from "@service/pulumi/sandbox";
import { builtPulumi, hermeticEnvironment } from "../engine/pulumi-engine.mts";

const root = join(import.meta.dirname, "../..");
const TOKEN = "bench-hooks-token-0123456789";
const HOST = "hooks.bench.test";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const rounds = Number(values.rounds);
const cli = builtPulumi();
if (!cli) {
  process.stderr.write(
    "npm run bench:engine: no Pulumi CLI has been built for the pinned release. Run `npm run engine` first.\n",
  );
  process.exit(1);
}

/** The verification files' origin: a loopback server over a folder. */
async function serveFolder(dir: string) {
  const server = createServer((req, res) => {
    try {
      res.end(readFileSync(join(dir, new URL(req.url ?? "/", "http://x").pathname)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** A folder holding a `pulumi-resource-pulumi-nodejs` that starts the real plugin with the probe loaded. */
function probedPluginDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "bench-plugin-"));
  const plugin = join(dir, "pulumi-resource-pulumi-nodejs");
  const probe = join(import.meta.dirname, "bench-engine-probe.cjs");
  writeFileSync(
    plugin,
    `#!/bin/sh\nexec node --require "${probe}" "$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")" "$@"\n`,
  );
  chmodSync(plugin, 0o755);
  return dir;
}

interface Measure {
  readonly wallMs: number;
  /** Provider processes from their start to their last answer. */
  readonly providerMs: number;
  /** Time at least one call into this package was in flight, API calls included. */
  readonly busyMs: number;
  readonly calls: number;
  readonly creates: number;
  readonly listings: number;
}

interface ProbeLine {
  readonly pid: number;
  readonly event: string;
  readonly at: number;
  readonly ms?: number;
}

/** Per provider process: from its start to its last answer (span), and the time a call was in flight (busy). */
function providerTimes(log: string): { spanMs: number; busyMs: number } {
  let lines: ProbeLine[] = [];
  try {
    lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ProbeLine);
  } catch {
    // No provider process started: nothing of ours ran.
  }
  let spanMs = 0;
  let busyMs = 0;
  for (const pid of new Set(lines.map((l) => l.pid))) {
    const mine = lines.filter((l) => l.pid === pid);
    const origin = Math.min(...mine.filter((l) => l.event === "origin").map((l) => l.at));
    const answers = mine.filter((l) => l.event.startsWith("answer:"));
    if (answers.length === 0) continue;
    spanMs += Math.max(...answers.map((l) => l.at)) - origin;
    // The union of the calls' intervals: concurrent creates count once.
    const intervals = answers.map((l) => [l.at - (l.ms ?? 0), l.at] as const).sort((a, b) => a[0] - b[0]);
    let [from, to] = intervals[0]!;
    for (const [start, end] of intervals.slice(1)) {
      if (start > to) {
        busyMs += to - from;
        [from, to] = [start, end];
      } else to = Math.max(to, end);
    }
    busyMs += to - from;
  }
  return { spanMs, busyMs };
}

function project(files: readonly [string, string][], sandbox: Sandbox, plugins: string) {
  const dir = mkdtempSync(join(root, ".e2e-work", "bench-"));
  for (const [from, to] of files) cpSync(from, join(dir, to), { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "bench-home-"));
  const backend = mkdtempSync(join(tmpdir(), "bench-backend-"));
  const log = join(home, "probe.log");
  const base = hermeticEnvironment(cli!, home, backend);
  const env = { ...base, PATH: `${plugins}${delimiter}${base.PATH}`, SERVICE_BENCH_PROBE_LOG: log };
  async function run(...args: string[]): Promise<Measure> {
    rmSync(log, { force: true });
    const mark = sandbox.requests().length;
    const started = performance.now();
    const child = spawn(cli!, [...args, "--non-interactive"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    const status = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const wallMs = performance.now() - started;
    if (status !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${status}:\n${output}`);
    const calls = sandbox.requests().slice(mark);
    const { spanMs, busyMs } = providerTimes(log);
    return {
      wallMs,
      providerMs: spanMs,
      busyMs,
      calls: calls.length,
      creates: calls.filter((r) => r.route === "/v2/webhooks").length,
      listings: calls.filter((r) => r.route?.startsWith("/v2/search/")).length,
    };
  }
  return {
    dir,
    run,
    cleanup() {
      for (const path of [dir, home, backend]) rmSync(path, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function stackRound(kind: "quickstart" | "ten", plugins: string) {
  const files = mkdtempSync(join(tmpdir(), "bench-files-"));
  const origin = await serveFolder(files);
  const sandbox = await startSandbox({
    seed: {
      organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN, webhooks: true }] }],
      hosts: { [HOST]: origin.url },
    },
  });
  const p =
    kind === "quickstart"
      ? project(
          [
            [join(root, "Pulumi.yaml"), "Pulumi.yaml"],
            [join(root, "tools/quickstart"), "tools/quickstart"],
          ],
          sandbox,
          plugins,
        )
      : project([[join(root, "test/e2e/program"), "."]], sandbox, plugins);
  try {
    await p.run("stack", "init", "bench");
    const config: [string, string, boolean?][] = [
      ["service:token", TOKEN, true],
      ["service:baseUrl", sandbox.url],
      ["service:hostOverrides", JSON.stringify({ [HOST]: origin.url })],
    ];
    if (kind === "quickstart") {
      config.push(
        ["quickstart:hostname", HOST],
        ["quickstart:webhookSecret", "bench-webhook-secret-0001", true],
      );
      config.push(["quickstart:filesDir", files]);
    } else {
      const hooks = Array.from({ length: 10 }, (_, i) => ({ name: `hook-${i}`, channel: `channel-${i}` }));
      config.push(["host", HOST], ["webhookSecret", "bench-webhook-secret-0001", true], ["filesDir", files]);
      config.push(["domain", "true"], ["webhooks", JSON.stringify(hooks)]);
    }
    for (const [key, value, secret] of config)
      await p.run("config", "set", ...(secret ? ["--secret"] : []), key, value);
    const result = {
      "preview (new stack)": await p.run("preview"),
      "up --yes": await p.run("up", "--yes"),
      "preview (unchanged)": await p.run("preview"),
      "refresh --yes --skip-preview": await p.run("refresh", "--yes", "--skip-preview"),
      "destroy --yes": await p.run("destroy", "--yes"),
    };
    return result;
  } finally {
    p.cleanup();
    await sandbox.close();
    origin.close();
    rmSync(files, { recursive: true, force: true });
  }
}

mkdirSync(join(root, ".e2e-work"), { recursive: true });
const plugins = probedPluginDir();
for (const kind of ["quickstart", "ten"] as const) {
  const runs: Awaited<ReturnType<typeof stackRound>>[] = [];
  for (let i = 0; i < rounds; i++) runs.push(await stackRound(kind, plugins));
  const title = kind === "quickstart" ? "quickstart (a Domain, two webhooks)" : "ten webhooks and a Domain";
  process.stdout.write(`\n${title}, median of ${rounds} rounds\n`);
  process.stdout.write(
    `  ${"command".padEnd(30)} ${"wall s".padStart(7)} ${"span s".padStart(7)} ${"share".padStart(6)} ${"busy s".padStart(7)} ${"share".padStart(6)} ${"calls".padStart(6)} ${"creates".padStart(8)} ${"listings".padStart(9)}\n`,
  );
  for (const command of Object.keys(runs[0]!) as (keyof (typeof runs)[0])[]) {
    const pick = (f: (m: Measure) => number) => median(runs.map((r) => f(r[command])));
    const wall = pick((m) => m.wallMs);
    const ours = pick((m) => m.providerMs);
    const busy = pick((m) => m.busyMs);
    const share = (ms: number) => `${((100 * ms) / wall).toFixed(0)} %`.padStart(6);
    process.stdout.write(
      `  ${command.padEnd(30)} ${(wall / 1000).toFixed(2).padStart(7)} ${(ours / 1000).toFixed(2).padStart(7)} ${share(ours)} ${(busy / 1000).toFixed(2).padStart(7)} ${share(busy)} ${String(pick((m) => m.calls)).padStart(6)} ${String(pick((m) => m.creates)).padStart(8)} ${String(pick((m) => m.listings)).padStart(9)}\n`,
    );
  }
}
rmSync(plugins, { recursive: true, force: true });
