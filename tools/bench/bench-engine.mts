/**
 * `npm run bench:engine`: this package under the real Pulumi engine (build it first with `npm run engine`),
 * against the sandbox at the service's 10 requests per second per token, beside what it is measured against:
 *
 * - the peer table: ten webhooks (webhooks-program/), made by this package, by a hand-rolled dynamic
 *   provider on fetch (the peer), by a dynamic provider that does nothing, and by components only (the
 *   engine's floor), in interleaved rounds (`--rounds`, default 3): each command's median wall time, CPU
 *   time, API calls, and this package's share of `up`;
 * - the fleet table: N organizations (`--fleet`, default 1,3,10,30), each with its own token through a
 *   `connection`, a Domain and 10 Webhooks (fleet-program/), through the dynamic resources and through
 *   the provider plugin, beside the do-nothing provider and the floor (`--fleet-rounds`, default 1): wall
 *   time and calls per command, the provider's peak memory, the 429s the client absorbed, the checkpoint's
 *   bytes.
 *
 * It prints both tables and writes docs/performance.md (with docs/performance-fleet.svg, a chart it draws)
 * when it measured both with their defaults (`--report-only` writes them again from the last run's
 * measures, kept in .e2e-work/bench-engine.json). Goals, printed beside the figures: no command slower than the
 * peer's median; 0 calls on an unchanged preview; refresh at one listing of each kind per organization;
 * fleet `up` at N = 30 within 1.5 × the do-nothing provider's, plus 1 s; provider memory from N = 1 to 30
 * at most 20 MB above the do-nothing provider's growth; no 429 reaching the user.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { builtPulumi } from "../engine/pulumi-engine.mts";
import {
  type BenchOrganization,
  benchOrganizations,
  benchProject,
  type Measure,
  startStage,
} from "./engine-stage.mts";
import {
  type FleetRow,
  fleetTable,
  type PeerRow,
  peerTable,
  writePerformanceDoc,
} from "./performance-report.mts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    fleet: { type: "string", default: "1,3,10,30" },
    "fleet-rounds": { type: "string", default: "1" },
    "skip-peer": { type: "boolean", default: false },
    "skip-fleet": { type: "boolean", default: false },
    "report-only": { type: "boolean", default: false },
  },
});
/** Where each run keeps what it measured (git-ignored), so that `--report-only` can write the page again. */
const RESULTS = join(import.meta.dirname, "../../.e2e-work/bench-engine.json");
if (values["report-only"]) {
  const saved = JSON.parse(readFileSync(RESULTS, "utf8")) as Parameters<typeof writePerformanceDoc>[0];
  const written = writePerformanceDoc({ ...saved, started: new Date(saved.started) });
  process.stdout.write(
    `${peerTable(saved.peer)}\n\n${fleetTable(saved.fleet)}\n\nwrote ${written.join(" and ")}\n`,
  );
  process.exit(0);
}
const cli = builtPulumi();
if (!cli) {
  process.stderr.write(
    "npm run bench:engine: no Pulumi CLI has been built for the pinned release. Run `npm run engine` first.\n",
  );
  process.exit(1);
}
const SECRET = "bench-webhook-secret-0001";
const load = () => loadavg()[0]!;

/** Rotates `items` by `round`, so that no variant always runs first. */
const rotated = <T,>(items: readonly T[], round: number) =>
  items.map((_, i) => items[(i + round) % items.length]!);

const PEER_VARIANTS = ["package", "peer", "nothing", "floor"] as const;
type PeerVariant = (typeof PEER_VARIANTS)[number];

/** One round of the ten webhooks, every variant in turn, on a sandbox of its own. */
async function peerRound(
  round: number,
): Promise<Map<PeerVariant, Record<string, Measure & { load: number }>>> {
  const [ours, peer] = benchOrganizations(2, `round-${round}`) as [BenchOrganization, BenchOrganization];
  const stage = await startStage([ours, peer]);
  const results = new Map<PeerVariant, Record<string, Measure & { load: number }>>();
  try {
    await stage.registerDomain(ours);
    await stage.registerDomain(peer);
    for (const variant of rotated(PEER_VARIANTS, round)) {
      const org = variant === "peer" ? peer : ours;
      const p = benchProject(cli!, join(import.meta.dirname, "webhooks-program"), stage.sandbox);
      try {
        await p.run("stack", "init", "bench");
        await p.configure([
          ["variant", variant],
          ["host", org.host],
          ["sandboxUrl", stage.sandbox.url],
          ["service:baseUrl", stage.sandbox.url],
          ["service:token", org.token, true],
          ["token", org.token, true],
          ["webhookSecret", SECRET, true],
        ]);
        const step = async (...args: string[]) => ({ ...(await p.run(...args)), load: load() });
        const measures: Record<string, Measure & { load: number }> = {};
        measures.preview = await step("preview");
        measures.up = await step("up", "--yes", "--skip-preview");
        measures["preview (unchanged)"] = await step("preview");
        measures.refresh = await step("refresh", "--yes", "--skip-preview");
        await p.configure([["replaced", "replaced-channel"]]);
        measures.replace = await step("up", "--yes", "--skip-preview");
        measures.destroy = await step("destroy", "--yes", "--skip-preview");
        results.set(variant, measures);
      } finally {
        p.cleanup();
      }
    }
  } finally {
    await stage.close();
  }
  return results;
}

const FLEET_VARIANTS = ["dynamic", "plugin", "nothing", "floor"] as const;
type FleetVariant = (typeof FLEET_VARIANTS)[number];
const FLEET_COMMANDS = ["up", "preview (unchanged)", "refresh", "destroy"] as const;

/** One round of a fleet of `n` organizations, every variant in turn, on a sandbox of its own. */
async function fleetRound(n: number, round: number) {
  const orgs = benchOrganizations(n);
  const stage = await startStage(orgs);
  const results = new Map<FleetVariant, Record<string, Measure & { load: number }>>();
  try {
    for (const variant of rotated(FLEET_VARIANTS, round)) {
      const p = benchProject(cli!, join(import.meta.dirname, "fleet-program"), stage.sandbox, {
        SERVICE_BENCH_TOKENS: JSON.stringify(orgs.map((o) => o.token)),
      });
      try {
        await p.run("stack", "init", "bench");
        await p.configure([
          ["organizations", String(n)],
          ["variant", variant],
          ["sandboxUrl", stage.sandbox.url],
          ["filesDir", stage.files],
          [
            "service:hostOverrides",
            JSON.stringify(Object.fromEntries(orgs.map((o) => [o.host, stage.originUrl]))),
          ],
          ["webhookSecret", SECRET, true],
        ]);
        const step = async (...args: string[]) => ({ ...(await p.run(...args)), load: load() });
        const measures: Record<string, Measure & { load: number }> = {};
        measures.up = await step("up", "--yes", "--skip-preview");
        measures["preview (unchanged)"] = await step("preview", "--expect-no-changes");
        measures.refresh = await step("refresh", "--yes", "--skip-preview");
        measures.destroy = await step("destroy", "--yes", "--skip-preview");
        results.set(variant, measures);
      } finally {
        p.cleanup();
      }
    }
  } finally {
    await stage.close();
  }
  return results;
}

const started = new Date();
let peerRows: PeerRow[] | undefined;
if (!values["skip-peer"]) {
  const rounds = Number(values.rounds);
  const runs: Awaited<ReturnType<typeof peerRound>>[] = [];
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`peer round ${round + 1} of ${rounds} (load ${load().toFixed(2)})\n`);
    runs.push(await peerRound(round));
  }
  peerRows = Object.keys(runs[0]!.get("package")!).map((command) => ({
    command,
    byVariant: Object.fromEntries(
      PEER_VARIANTS.map((variant) => [variant, runs.map((run) => run.get(variant)![command]!)]),
    ) as unknown as PeerRow["byVariant"],
  }));
  process.stdout.write(`\n${peerTable(peerRows)}\n`);
}

let fleetRows: FleetRow[] | undefined;
if (!values["skip-fleet"]) {
  const sizes = values.fleet.split(",").map(Number);
  const rounds = Number(values["fleet-rounds"]);
  fleetRows = [];
  for (const n of sizes) {
    const runs: Awaited<ReturnType<typeof fleetRound>>[] = [];
    for (let round = 0; round < rounds; round++) {
      process.stderr.write(`fleet of ${n}, round ${round + 1} of ${rounds} (load ${load().toFixed(2)})\n`);
      runs.push(await fleetRound(n, round));
    }
    for (const variant of FLEET_VARIANTS) {
      fleetRows.push({
        organizations: n,
        variant,
        byCommand: Object.fromEntries(
          FLEET_COMMANDS.map((command) => [command, runs.map((run) => run.get(variant)![command]!)]),
        ) as unknown as FleetRow["byCommand"],
      });
    }
  }
  process.stdout.write(`\n${fleetTable(fleetRows)}\n`);
}

mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  JSON.stringify({ started, peer: peerRows ?? [], fleet: fleetRows ?? [], rounds: Number(values.rounds) }),
);
const defaults = !values["skip-peer"] && !values["skip-fleet"] && values.fleet === "1,3,10,30";
if (defaults && peerRows && fleetRows) {
  const written = writePerformanceDoc({
    started,
    peer: peerRows,
    fleet: fleetRows,
    rounds: Number(values.rounds),
  });
  process.stdout.write(`\nwrote ${written.join(" and ")}\n`);
} else {
  process.stdout.write(
    "\ndocs/performance.md left as it is: it is written by a run with the default options.\n",
  );
}
