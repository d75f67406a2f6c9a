/**
 * This package's share of the dynamic-provider host's cold start: Configure plus the first Check of a
 * Webhook, over gRPC, minus the same for a trivial dynamic provider whose check returns its inputs. The
 * subtraction leaves out what Pulumi's host does for any provider (gRPC, rebuilding the provider from its
 * text); what remains is loading and running this package's code. Hosts start from this repository, as
 * `pulumi up` starts them from a program's directory, and the two kinds alternate start by start.
 *
 * The runtime contract turns on Node's compile cache, which lives under os.tmpdir(): each host gets
 * its own TMPDIR so that "cold" and "warm" mean what they say, while the cache is enabled exactly where
 * the package enables it (NODE_COMPILE_CACHE would enable it for Pulumi's modules as well).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import * as pulumi from "@pulumi/pulumi";
import { startDynamicHost } from "../../test/helpers/dynamic-host";
import { median } from "./stats";

const STARTS = 7;
const URN = "urn:pulumi:dev::bench::pulumi-nodejs:dynamic/service:Webhook::w";
/** Check calls no API, so nothing needs to listen here. */
const CONFIG = { "service:token": "bench-token", "service:baseUrl": "http://127.0.0.1:9" };
const INPUTS = {
  endpoint: "https://hooks.bench.test/events",
  secretKey: "bench-secret-0123456789",
  filters: [{ key: "activity.name", value: "authentication" }],
};

/** A provider that does nothing: what any dynamic provider costs the host. */
function trivialProviderText(): Promise<string> {
  const provider = {
    async check(_olds: unknown, news: unknown) {
      return { inputs: news };
    },
  };
  return pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true }).then((s) => s.text);
}

/** Milliseconds from Configure to the first Check's answer, in a freshly started host. */
async function firstCheck(providerText: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  const host = await startDynamicHost({ cwd: process.cwd(), env });
  try {
    const started = performance.now();
    await host.configure(CONFIG);
    const { failures } = await host.check(URN, {}, { __provider: providerText, ...INPUTS });
    const elapsed = performance.now() - started;
    if (failures.length > 0) throw new Error(`the first Check failed: ${JSON.stringify(failures)}`);
    return elapsed;
  } finally {
    await host.close();
  }
}

const freshTmp = () => mkdtempSync(join(tmpdir(), "service-bench-"));

function filesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/** Pairs of (ours, trivial) first-check times; `tmpFor` gives the TMPDIR of our host's i-th start. */
async function pairs(
  ourText: string,
  trivialText: string,
  tmpFor: (i: number) => string,
): Promise<{ ours: number[]; trivial: number[]; share: number[] }> {
  const ours: number[] = [];
  const trivial: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    // The trivial provider never turns the compile cache on, so its TMPDIR does not matter.
    const runTrivial = () => firstCheck(trivialText);
    const runOurs = () => firstCheck(ourText, { TMPDIR: tmpFor(i) });
    if (i % 2 === 0) {
      trivial.push(await runTrivial());
      ours.push(await runOurs());
    } else {
      ours.push(await runOurs());
      trivial.push(await runTrivial());
    }
  }
  return { ours, trivial, share: ours.map((o, i) => o - trivial[i]!) };
}

function report(title: string, run: { ours: number[]; trivial: number[]; share: number[] }): void {
  const med = (xs: number[]) => `${median(xs).toFixed(1)} ms`;
  console.log(`  ${title}`);
  console.log(
    `    Configure + first Check: webhook ${med(run.ours)}, trivial provider ${med(run.trivial)}; this package's share ${med(run.share)} (goal <= 30 ms; per start: ${run.share.map((s) => s.toFixed(0)).join(", ")})`,
  );
}

export async function coldStartRun(ourText: string): Promise<void> {
  const trivialText = await trivialProviderText();
  const warmup = freshTmp();
  // One unmeasured start of each: the first process start after a build reads every file from disk.
  await firstCheck(trivialText);
  await firstCheck(ourText, { TMPDIR: warmup });
  console.log(`dynamic-provider host cold start, median of ${STARTS} starts per row, from this repository`);

  const coldDirs = Array.from({ length: STARTS }, freshTmp);
  report("compile cache empty (a first run):", await pairs(ourText, trivialText, (i) => coldDirs[i]!));
  const written = coldDirs.map(filesUnder);
  console.log(
    `    files the host left in its compile cache: ${Math.min(...written)} to ${Math.max(...written)} (the runtime writes it after the first Check: the engine stops the host with a signal, and Node writes the cache by itself only at a normal exit)`,
  );

  const reused = freshTmp();
  report(
    "compile cache as left by earlier starts (every later run on the machine):",
    await pairs(ourText, trivialText, () => reused),
  );
  for (const dir of [warmup, ...coldDirs, reused]) rmSync(dir, { recursive: true, force: true });
  breakdown();
}

interface Probe {
  stages: Record<string, number>;
  loads: Record<string, { files: number; ms: number }>;
}

/** What the first Check spends its time on, from check-load-probe.ts, cold and then warm compile cache. */
function breakdown(): void {
  const probe = join(__dirname, "check-load-probe.js");
  const runs: { cold: Probe; warm: Probe }[] = [];
  for (let i = 0; i < STARTS; i++) {
    const tmp = freshTmp();
    const run = () =>
      JSON.parse(
        execFileSync(process.execPath, [probe], { env: { ...process.env, TMPDIR: tmp }, encoding: "utf8" }),
      ) as Probe;
    // The probe exits normally, so the second run finds the compile cache the first one wrote.
    runs.push({ cold: run(), warm: run() });
    rmSync(tmp, { recursive: true, force: true });
  }
  const med = (pick: (p: Probe) => number | undefined) => (which: "cold" | "warm") =>
    `${median(runs.map((r) => pick(r[which]) ?? 0)).toFixed(1)} ms`;
  console.log(
    `  where the first Check's time goes, in a plain Node process, median of ${STARTS} (compile cache empty / written):`,
  );
  for (const stage of Object.keys(runs[0]!.cold.stages)) {
    const m = med((p) => p.stages[stage]);
    console.log(`    ${stage}: ${m("cold")} / ${m("warm")}`);
  }
  console.log("    own load time by origin (module bodies included; timing every load adds some):");
  for (const [group, { files }] of Object.entries(runs[0]!.cold.loads)) {
    const m = med((p) => p.loads[group]?.ms);
    console.log(`      ${group} (${files} files): ${m("cold")} / ${m("warm")}`);
  }
}
