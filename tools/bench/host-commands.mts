/**
 * `npm run bench:host`: what the dynamic-provider host spends on each command for ten webhooks, this
 * package's Webhook beside the peer (webhooks-program/peer-provider.js), without the engine. Pulumi's real
 * host (@pulumi/pulumi/cmd/dynamic-provider) starts for every command, as the engine starts it, and is
 * spoken to over gRPC the way the engine speaks to it (test/helpers/dynamic-host.ts), against the sandbox
 * at 10 requests per second per token:
 *
 * - preview: Configure, then each webhook's Check in turn (the engine checks one resource at a time);
 * - up: the same checks, then the ten Creates at once;
 * - preview (unchanged): each webhook's Check and Diff in turn, against what up stored;
 * - refresh: the ten Reads at once; destroy: the ten Deletes at once.
 *
 * Each command's wall time runs from Configure to its last answer; the host's CPU time is its whole life's
 * (its start, the same for both, included); "first answer" is when the sandbox answered the first API
 * call, from when the Creates, Reads or Deletes were sent: a provider's start-up that the calls wait for.
 * Under the engine the same work sits on each command's critical path, beside a second or more of the
 * engine's own, whose noise hides a few milliseconds: this shows them. Medians of `--rounds` (default 9),
 * the two alternating which goes first, kept in .e2e-work/bench-host.json for docs/performance.md, which
 * `npm run bench:engine` writes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { DynamicHost } from "../../test/helpers/dynamic-host.ts";
import { benchOrganizations, median, startStage } from "./engine-stage.mts";
import { currentCommit, HOST_RESULTS, type HostRow, type HostRun, hostTable } from "./performance-report.mts";

const require = createRequire(import.meta.url);
// The compiled helper: this script runs as it is, and the helper is CommonJS TypeScript.
const { startDynamicHost } = require("../../dist/test/helpers/dynamic-host.js") as {
  startDynamicHost: (options: { cwd: string }) => Promise<DynamicHost>;
};
const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const { storedProviderText } = require("../../dist/provider/resource-kit/stored-provider.js") as {
  storedProviderText: (key: string) => string;
};
const peerProvider = require("./webhooks-program/peer-provider.js") as object;

const { values } = parseArgs({ options: { rounds: { type: "string", default: "9" } } });
const VARIANTS = ["ours", "peer"] as const;
type Variant = (typeof VARIANTS)[number];
const COMMANDS = ["preview", "up", "preview (unchanged)", "refresh", "destroy"] as const;
type Command = (typeof COMMANDS)[number];
const WEBHOOKS = 10;
const SECRET = "bench-webhook-secret-0001";

const [oursOrg, peerOrg] = benchOrganizations(2, "host");
const stage = await startStage([oursOrg!, peerOrg!]);
await stage.registerDomain(oursOrg!);
await stage.registerDomain(peerOrg!);
const baseUrl = stage.sandbox.url;

/** What each variant's resources store as `__provider`: ours one line, the peer's its closure. */
const providerText: Record<Variant, string> = {
  ours: storedProviderText("webhook"),
  peer: (await pulumi.runtime.serializeFunction(() => peerProvider, { allowSecrets: true })).text,
};
const stackConfig: Record<Variant, Record<string, string>> = {
  ours: { "service:token": oursOrg!.token, "service:baseUrl": baseUrl },
  peer: {},
};
const urn = (i: number) => `urn:pulumi:bench::host::pulumi-nodejs:dynamic:Resource::hook-${i}`;
function inputs(variant: Variant, i: number): Record<string, unknown> {
  const org = variant === "peer" ? peerOrg! : oursOrg!;
  const webhook = {
    endpoint: `https://${org.host}/service/events`,
    secretKey: SECRET,
    channel: `channel-${i}`,
    filters: [{ key: "activity.name", value: "authentication" }],
    __provider: providerText[variant],
  };
  return variant === "peer" ? { ...webhook, token: org.token, baseUrl } : webhook;
}

/** The host's CPU time so far, in ms, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** What up stored per variant, for the commands after it. */
const stored = new Map<Variant, { id: string; properties: Record<string, unknown> }[]>();

interface Measure {
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly firstAnswerMs?: number;
}

async function run(variant: Variant, command: Command): Promise<Measure> {
  const host = await startDynamicHost({ cwd: process.cwd() });
  const mark = stage.sandbox.requests().length;
  /** When the calls that reach the service were sent, on the sandbox's clock (this process's). */
  let sentAt: number | undefined;
  try {
    const started = performance.now();
    await host.configure(stackConfig[variant]);
    const state = () => stored.get(variant)!;
    if (command === "preview" || command === "up") {
      const checked: Record<string, unknown>[] = [];
      for (let i = 0; i < WEBHOOKS; i++)
        checked.push((await host.check(urn(i), {}, inputs(variant, i))).inputs);
      if (command === "up") {
        sentAt = Date.now();
        stored.set(variant, await Promise.all(checked.map((news, i) => host.create(urn(i), news))));
      }
    } else if (command === "preview (unchanged)") {
      for (const [i, { id, properties }] of state().entries()) {
        const { inputs: news } = await host.check(urn(i), properties, inputs(variant, i));
        await host.diff(urn(i), id, properties, news);
      }
    } else if (command === "refresh") {
      sentAt = Date.now();
      await Promise.all(state().map(({ id, properties }, i) => host.read(urn(i), id, properties)));
    } else {
      sentAt = Date.now();
      await Promise.all(state().map(({ id, properties }, i) => host.delete(urn(i), id, properties)));
    }
    const wallMs = performance.now() - started;
    const answered = stage.sandbox
      .requests()
      .slice(mark)
      .map((call) => call.at);
    const firstAnswerMs =
      sentAt !== undefined && answered.length > 0 ? Math.min(...answered) - sentAt : undefined;
    return { wallMs, cpuMs: cpuMsOf(host.pid), firstAnswerMs };
  } finally {
    await host.close();
  }
}

/** Until the service's one-second window has passed, so that no command meets the last one's calls there. */
const windowPassed = () => new Promise((resolve) => setTimeout(resolve, 1_100));

const measured = new Map<string, Measure[]>();
const started = new Date();
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    process.stderr.write(`round ${round + 1} of ${values.rounds}\n`);
    for (const command of COMMANDS) {
      for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
        await windowPassed();
        const key = `${command}\u0000${variant}`;
        measured.set(key, [...(measured.get(key) ?? []), await run(variant, command)]);
      }
    }
  }
} finally {
  await stage.close();
}

/** The median of `xs`, or undefined when any is missing. */
const medianOf = (xs: (number | undefined)[]) =>
  xs.every((x) => x !== undefined) ? median(xs as number[]) : undefined;
const rows: HostRow[] = COMMANDS.map((command) => {
  const [ours, peer] = VARIANTS.map((v) => measured.get(`${command}\u0000${v}`)!) as [Measure[], Measure[]];
  const pair = (f: (m: Measure) => number | undefined) =>
    [medianOf(ours.map(f)), medianOf(peer.map(f))] as const;
  return {
    command,
    wallMs: [median(ours.map((m) => m.wallMs)), median(peer.map((m) => m.wallMs))],
    cpuMs: pair((m) => m.cpuMs),
    firstAnswerMs: pair((m) => m.firstAnswerMs),
  };
});
const hostRun: HostRun = {
  started: started.toISOString(),
  commit: currentCommit(),
  rounds: Number(values.rounds),
  rows,
};
mkdirSync(dirname(HOST_RESULTS), { recursive: true });
writeFileSync(HOST_RESULTS, JSON.stringify(hostRun));
process.stdout.write(
  `Ten webhooks, the dynamic-provider host alone: medians of ${values.rounds} rounds.\n\n${hostTable(rows)}\n\n` +
    "docs/performance.md shows this table from the next `npm run bench:engine`.\n",
);
