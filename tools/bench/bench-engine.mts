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
 *   the provider plugin, and the same fleet from a Python program on the plugin (python-fleet.mts),
 *   beside the do-nothing provider and the floor (`--fleet-rounds`, default 1): wall
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
  rotated,
  startStage,
} from "./engine-stage.mts";
import {
  type FleetRow,
  fleetTable,
  type PeerRow,
  peerTable,
  writePerformanceDoc,
} from "./performance-report.mts";
import { PYTHON_FLEET_PROGRAM, preparePythonFleet, pythonFleetSettings } from "./python-fleet.mts";

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

/** Each command's measure, with the machine's load as it ended. */
type Measures = Record<string, Measure & { load: number }>;

/** One command of a round: its name in the tables, its arguments, and what to change before it. */
interface Command {
  readonly name: string;
  readonly args: readonly string[];
  readonly settings?: [string, string, boolean?][];
}

/**
 * One round: a stack of `program` per variant, configured by `settings`, then each command on every
 * stack in turn, before the next command: the variants of one command run seconds apart, so that the
 * machine's load (shared, and it changes by the minute) weighs on them alike. The order turns with the
 * round and the command, so that no variant always goes first. The stage is closed after.
 */
async function interleaved<V extends string>(
  stage: Awaited<ReturnType<typeof startStage>>,
  round: number,
  variants: readonly V[],
  program: {
    /** The project folder the variant's stack is a copy of. */
    dir(variant: V): string;
    /** Readies the copy `dir` before its stack is made. */
    prepare?(variant: V, dir: string): void;
    settings(variant: V): [string, string, boolean?][];
    env?(variant: V): NodeJS.ProcessEnv;
  },
  commands: readonly Command[],
): Promise<Map<V, Measures>> {
  const projects = new Map<V, ReturnType<typeof benchProject>>();
  const results = new Map<V, Measures>(variants.map((v) => [v, {}]));
  try {
    for (const variant of variants) {
      const p = benchProject(cli!, program.dir(variant), stage.sandbox, program.env?.(variant));
      projects.set(variant, p);
      program.prepare?.(variant, p.dir);
      await p.run("stack", "init", "bench");
      await p.configure([
        ["variant", variant],
        ["webhookSecret", SECRET, true],
        ...program.settings(variant),
      ]);
    }
    for (const [i, command] of commands.entries()) {
      for (const variant of rotated(variants, round + i)) {
        const p = projects.get(variant)!;
        if (command.settings) await p.configure(command.settings);
        results.get(variant)![command.name] = { ...(await p.run(...command.args)), load: load() };
      }
    }
  } finally {
    for (const p of projects.values()) p.cleanup();
    await stage.close();
  }
  return results;
}

const PEER_VARIANTS = ["package", "peer", "nothing", "floor"] as const;

/** One round of the ten webhooks, on a sandbox of its own. */
async function peerRound(round: number) {
  const [ours, peer] = benchOrganizations(2, `round-${round}`) as [BenchOrganization, BenchOrganization];
  const stage = await startStage([ours, peer]);
  await stage.registerDomain(ours);
  await stage.registerDomain(peer);
  const settings = (variant: string): [string, string, boolean?][] => {
    const org = variant === "peer" ? peer : ours;
    return [
      ["host", org.host],
      ["sandboxUrl", stage.sandbox.url],
      ["service:baseUrl", stage.sandbox.url],
      ["service:token", org.token, true],
      ["token", org.token, true],
    ];
  };
  const dir = () => join(import.meta.dirname, "webhooks-program");
  return interleaved(stage, round, PEER_VARIANTS, { dir, settings }, [
    { name: "preview", args: ["preview"] },
    { name: "up", args: ["up", "--yes", "--skip-preview"] },
    { name: "preview (unchanged)", args: ["preview"] },
    { name: "refresh", args: ["refresh", "--yes", "--skip-preview"] },
    {
      name: "replace",
      args: ["up", "--yes", "--skip-preview"],
      settings: [["replaced", "replaced-channel"]],
    },
    { name: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
  ]);
}

const FLEET_VARIANTS = ["dynamic", "plugin", "python", "nothing", "floor"] as const;
const FLEET_COMMANDS = ["up", "preview (unchanged)", "refresh", "destroy"] as const;

/**
 * One round of a fleet of `n` organizations, on a sandbox of its own: the three paths that call the
 * service each have organizations of their own, so that their stacks can stand side by side. The Python
 * program takes its fleet and tokens as settings (python-fleet.mts), the JavaScript one its tokens from
 * the environment.
 */
async function fleetRound(n: number, round: number) {
  const orgs = {
    dynamic: benchOrganizations(n, "dynamic"),
    plugin: benchOrganizations(n, "plugin"),
    python: benchOrganizations(n, "python"),
  };
  const stage = await startStage([...orgs.dynamic, ...orgs.plugin, ...orgs.python]);
  type Variant = (typeof FLEET_VARIANTS)[number];
  const ownOrganizations = (variant: Variant): variant is keyof typeof orgs => variant in orgs;
  const orgsOf = (variant: Variant) => orgs[ownOrganizations(variant) ? variant : "dynamic"];
  const program = {
    dir: (variant: Variant) =>
      variant === "python" ? PYTHON_FLEET_PROGRAM : join(import.meta.dirname, "fleet-program"),
    prepare: (variant: Variant, dir: string) => {
      if (variant === "python") preparePythonFleet(dir);
    },
    env: (variant: Variant) => ({
      SERVICE_BENCH_TOKENS: JSON.stringify(orgsOf(variant).map((o) => o.token)),
    }),
    settings: (variant: Variant): [string, string, boolean?][] => [
      ["organizations", String(n)],
      ["prefix", ownOrganizations(variant) ? variant : "dynamic"],
      ...(variant === "python" ? pythonFleetSettings(orgs.python) : []),
      ["sandboxUrl", stage.sandbox.url],
      ["filesDir", stage.files],
      [
        "service:hostOverrides",
        JSON.stringify(Object.fromEntries(orgsOf(variant).map((o) => [o.host, stage.originUrl]))),
      ],
    ],
  };
  return interleaved(stage, round, FLEET_VARIANTS, program, [
    { name: "up", args: ["up", "--yes", "--skip-preview"] },
    { name: "preview (unchanged)", args: ["preview", "--expect-no-changes"] },
    { name: "refresh", args: ["refresh", "--yes", "--skip-preview"] },
    { name: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
  ]);
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

const measured = {
  started,
  peer: peerRows ?? [],
  fleet: fleetRows ?? [],
  rounds: Number(values.rounds),
  fleetRounds: Number(values["fleet-rounds"]),
};
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, JSON.stringify(measured));
const defaults = !values["skip-peer"] && !values["skip-fleet"] && values.fleet === "1,3,10,30";
if (defaults) {
  const written = writePerformanceDoc(measured);
  process.stdout.write(`\nwrote ${written.join(" and ")}\n`);
} else {
  process.stdout.write(
    "\ndocs/performance.md left as it is: it is written by a run with the default options.\n",
  );
}
