/**
 * This package's share of the dynamic-provider host's cold start: Configure plus the first Check of a
 * Webhook, over gRPC, minus the same for a trivial dynamic provider whose check returns its inputs. The
 * subtraction leaves out what Pulumi's host does for any provider (gRPC, rebuilding the provider from its
 * text); what remains is loading and running this package's code. Hosts start from this repository, as
 * `pulumi up` starts them from a program's directory, and the two kinds alternate start by start. The
 * package turns on no compile cache (issue 41), so each start compiles what it loads: NODE_COMPILE_CACHE
 * is left out of the hosts' environment, as it is for a user who has not set it.
 */
import { execFileSync } from "node:child_process";
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

/** The environment of a host or probe: without a compile cache, whatever this machine sets. */
function withoutCompileCache(): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE, ...env } = process.env;
  return env;
}

/** Milliseconds from Configure to the first Check's answer, in a freshly started host. */
async function firstCheck(providerText: string): Promise<number> {
  const host = await startDynamicHost({ cwd: process.cwd(), env: withoutCompileCache() });
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

/** Pairs of (ours, trivial) first-check times. */
async function pairs(
  ourText: string,
  trivialText: string,
): Promise<{ ours: number[]; trivial: number[]; share: number[] }> {
  const ours: number[] = [];
  const trivial: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const runTrivial = () => firstCheck(trivialText);
    const runOurs = () => firstCheck(ourText);
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
  // One unmeasured start of each: the first process start after a build reads every file from disk.
  await firstCheck(trivialText);
  await firstCheck(ourText);
  console.log(`dynamic-provider host cold start, median of ${STARTS} starts, from this repository`);
  report("each start (no compile cache):", await pairs(ourText, trivialText));
  breakdown();
}

interface Probe {
  stages: Record<string, number>;
  loads: Record<string, { files: number; ms: number }>;
}

/** What the first Check spends its time on, from check-load-probe.ts. */
function breakdown(): void {
  const probe = join(__dirname, "check-load-probe.js");
  const runs: Probe[] = [];
  for (let i = 0; i < STARTS; i++) {
    const output = execFileSync(process.execPath, [probe], { env: withoutCompileCache(), encoding: "utf8" });
    runs.push(JSON.parse(output) as Probe);
  }
  const med = (pick: (p: Probe) => number | undefined) =>
    `${median(runs.map((r) => pick(r) ?? 0)).toFixed(1)} ms`;
  console.log(`  where the first Check's time goes, in a plain Node process, median of ${STARTS}:`);
  for (const stage of Object.keys(runs[0]!.stages))
    console.log(`    ${stage}: ${med((p) => p.stages[stage])}`);
  console.log("    own load time by origin (module bodies included; timing every load adds some):");
  for (const [group, { files }] of Object.entries(runs[0]!.loads)) {
    console.log(`      ${group} (${files} files): ${med((p) => p.loads[group]?.ms)}`);
  }
}
