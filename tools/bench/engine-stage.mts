/**
 * What `npm run bench:engine` runs its stacks on: a sandbox with one organization per token, the origin
 * that serves the verification files, and Pulumi projects whose every command is measured (wall time,
 * CPU time, the provider processes' memory and busy time, the API calls the sandbox answered, the
 * checkpoint's bytes). A probe (bench-engine-probe.cjs) is loaded into every Node process a command starts.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Sandbox, startSandbox } from "@service/pulumi/sandbox";
import { hermeticEnvironment } from "../engine/pulumi-engine.mts";

const root = join(import.meta.dirname, "../..");
const PROBE = join(import.meta.dirname, "bench-engine-probe.cjs");
/** GNU time, for the CPU time of a whole command (the CLI and every process it waited for). */
const TIME = "/usr/bin/time";

/** One organization of the sandbox: its name, token and the hostname its Domain verifies. */
export interface BenchOrganization {
  readonly name: string;
  readonly token: string;
  readonly host: string;
}

/** The organizations of a bench stack: `bench-<i>`, each with its own token and hostname. */
export function benchOrganizations(count: number, prefix = "bench"): BenchOrganization[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${i}`,
    token: `${prefix}-${i}-token-0123456789`,
    host: `hooks.${prefix}-${i}.test`,
  }));
}

/** A sandbox seeded with `organizations`, and a loopback origin over a folder for their hostnames. */
export async function startStage(organizations: readonly BenchOrganization[]) {
  const files = mkdtempSync(join(tmpdir(), "bench-files-"));
  const server = createServer((req, res) => {
    try {
      res.end(readFileSync(join(files, new URL(req.url ?? "/", "http://x").pathname)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const originUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sandbox = await startSandbox({
    seed: {
      organizations: organizations.map((org) => ({
        name: org.name,
        users: [`${org.name}-user`],
        tokens: [{ token: org.token, webhooks: true }],
      })),
      hosts: Object.fromEntries(organizations.map((org) => [org.host, originUrl])),
    },
  });
  return {
    sandbox,
    files,
    originUrl,
    /** Registers `org`'s hostname outside Pulumi, as a peer that manages only webhooks finds it. */
    async registerDomain(org: BenchOrganization) {
      const call = async (path: string, body: unknown) => {
        const res = await fetch(`${sandbox.url}${path}`, {
          method: "POST",
          headers: {
            authorization: `Token ${org.token}`,
            "api-version": "2.0",
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
        return (await res.json()) as { verifier: string; register_token: string };
      };
      const start = await call("/v2/domains/start_registration", { domain_name: org.host });
      mkdirSync(join(files, "service_url_registration"), { recursive: true });
      writeFileSync(join(files, "service_url_registration", start.verifier), start.register_token);
      await call("/v2/domains/finish_registration", { domain_name: org.host, verifier: start.verifier });
    },
    async close() {
      await sandbox.close();
      server.close();
      rmSync(files, { recursive: true, force: true });
    },
  };
}

/** What one command cost. */
export interface Measure {
  readonly wallMs: number;
  /** CPU time of the command and every process it started, when GNU time is there to tell. */
  readonly cpuMs: number | undefined;
  /** CPU time of the provider processes (the dynamic-provider host, the provider plugin). */
  readonly providerCpuMs: number;
  /** CPU time of the other Node processes: the program, and the language host when it is one. */
  readonly programCpuMs: number;
  /** The largest peak resident memory of a provider process, in MB. */
  readonly providerRssMb: number;
  /** Provider processes from their start to their last answer, summed. */
  readonly spanMs: number;
  /** Time at least one call into this package was in flight, API calls included. */
  readonly busyMs: number;
  /** From the command's start to the first API call the sandbox answered; undefined without one. */
  readonly firstCallMs: number | undefined;
  readonly calls: number;
  readonly creates: number;
  readonly listings: number;
  /** The most calls the sandbox answered in any one second, over every token: above 10, tokens overlapped. */
  readonly peakCallsPerSecond: number;
  /** Answers of 429 the sandbox gave: each was waited out and retried, or it failed the command. */
  readonly throttled: number;
  /** The checkpoint's size after the command, in bytes, and its resources. */
  readonly checkpointBytes: number;
  readonly resources: number;
}

interface ProbeLine {
  readonly pid: number;
  readonly kind: "dynamic" | "plugin" | "other";
  readonly event: string;
  readonly at: number;
  readonly ms?: number;
  readonly cpuMs?: number;
  readonly rssKb?: number;
}

/** The provider processes' span, busy time, CPU time and peak memory, from the probe's log. */
function providerUsage(log: string) {
  let lines: ProbeLine[] = [];
  try {
    lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ProbeLine);
  } catch {
    // No Node process started.
  }
  let spanMs = 0;
  let busyMs = 0;
  let cpuMs = 0;
  let rssKb = 0;
  const providers = lines.filter((l) => l.kind !== "other");
  let programCpuMs = 0;
  const others = lines.filter((l) => l.kind === "other" && l.event === "usage");
  for (const pid of new Set(others.map((l) => l.pid)))
    programCpuMs += Math.max(...others.filter((l) => l.pid === pid).map((l) => l.cpuMs ?? 0));
  for (const pid of new Set(providers.map((l) => l.pid))) {
    const mine = providers.filter((l) => l.pid === pid);
    const usages = mine.filter((l) => l.event === "usage");
    cpuMs += Math.max(0, ...usages.map((l) => l.cpuMs ?? 0));
    rssKb = Math.max(rssKb, ...usages.map((l) => l.rssKb ?? 0));
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
  return { spanMs, busyMs, cpuMs, programCpuMs, rssMb: rssKb / 1024 };
}

/** The most of `times` (milliseconds) that fall in any one second. */
function peakPerSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 1000) start++;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

/** The project's name, from its Pulumi.yaml. */
function projectName(dir: string): string {
  return /^name:\s*(\S+)/m.exec(readFileSync(join(dir, "Pulumi.yaml"), "utf8"))![1]!;
}

/**
 * A copy of the project folder `from` under the repository (where node_modules resolves the package),
 * with its own Pulumi home and file backend, whose `run` measures a command.
 */
export function benchProject(cli: string, from: string, sandbox: Sandbox, extraEnv: NodeJS.ProcessEnv = {}) {
  mkdirSync(join(root, ".e2e-work"), { recursive: true });
  const dir = mkdtempSync(join(root, ".e2e-work", "bench-"));
  cpSync(from, dir, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "bench-home-"));
  const backend = mkdtempSync(join(tmpdir(), "bench-backend-"));
  const log = join(home, "probe.log");
  const timing = join(home, "time.txt");
  const env = {
    ...hermeticEnvironment(cli, home, backend),
    NODE_OPTIONS: `--require ${PROBE}`,
    SERVICE_BENCH_PROBE_LOG: log,
    ...extraEnv,
  };
  let stack = "";
  const checkpoint = () => {
    const file = join(backend, ".pulumi/stacks", projectName(dir), `${stack}.json`);
    if (!existsSync(file)) return { bytes: 0, resources: 0 };
    const text = readFileSync(file, "utf8");
    const state = JSON.parse(text) as { checkpoint?: { latest?: { resources?: unknown[] } } };
    return { bytes: Buffer.byteLength(text), resources: state.checkpoint?.latest?.resources?.length ?? 0 };
  };

  async function run(...args: string[]): Promise<Measure> {
    if (args[0] === "stack" && args[1] === "init") stack = args[2]!;
    rmSync(log, { force: true });
    const mark = sandbox.requests().length;
    const timed = existsSync(TIME);
    const command = timed ? TIME : cli;
    const argv = [...args, "--non-interactive"];
    const started = Date.now();
    const child = spawn(command, timed ? ["-f", "%U %S", "-o", timing, cli, ...argv] : argv, {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    const status = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const wallMs = Date.now() - started;
    if (status !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${status}:\n${output}`);
    const calls = sandbox.requests().slice(mark);
    const usage = providerUsage(log);
    const cpu = timed ? readFileSync(timing, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number) : [];
    const { bytes, resources } = checkpoint();
    return {
      wallMs,
      cpuMs: timed ? (cpu[0]! + cpu[1]!) * 1000 : undefined,
      providerCpuMs: usage.cpuMs,
      programCpuMs: usage.programCpuMs,
      providerRssMb: usage.rssMb,
      spanMs: usage.spanMs,
      busyMs: usage.busyMs,
      firstCallMs: calls.length > 0 ? Math.min(...calls.map((c) => c.at)) - started : undefined,
      calls: calls.filter((c) => c.status !== 429).length,
      creates: calls.filter((c) => c.route === "/v2/webhooks" && c.status !== 429).length,
      listings: calls.filter((c) => c.route?.startsWith("/v2/search/") && c.status !== 429).length,
      peakCallsPerSecond: peakPerSecond(calls.filter((c) => c.status !== 429).map((c) => c.at)),
      throttled: calls.filter((c) => c.status === 429).length,
      checkpointBytes: bytes,
      resources,
    };
  }

  return {
    dir,
    run,
    /** The checkpoint as `pulumi stack export` prints it. */
    async exported(): Promise<string> {
      return readFileSync(join(backend, ".pulumi/stacks", projectName(dir), `${stack}.json`), "utf8");
    },
    /** Sets stack configuration, secrets with `--secret`. */
    async configure(values: readonly (readonly [string, string, boolean?])[]) {
      await run(
        "config",
        "set-all",
        ...values.flatMap(([key, value, secret]) => [secret ? "--secret" : "--plaintext", `${key}=${value}`]),
      );
    },
    cleanup() {
      for (const path of [dir, home, backend]) rmSync(path, { recursive: true, force: true });
    },
  };
}

/** The middle value. */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Rotates `items` by `round`, so that no variant always runs first. */
export const rotated = <T,>(items: readonly T[], round: number) =>
  items.map((_, i) => items[(i + round) % items.length]!);
