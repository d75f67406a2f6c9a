/**
 * The tables `npm run bench:engine` prints, and docs/performance.md, which it writes with a chart of the
 * fleet's `up` against the number of organizations (docs/performance-fleet.svg, drawn here as plain SVG).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pinnedPulumiVersion } from "../engine/pulumi-engine.mts";
import { type Measure, median } from "./engine-stage.mts";

const root = join(import.meta.dirname, "../..");
// The repository's one Markdown table, as Biome writes it, from the compiled tree that `npm run
// bench:engine` builds first (the sources are CommonJS TypeScript, which Node does not run as they are).
const { markdownTable } = createRequire(import.meta.url)(
  join(root, "dist/tools/codegen/markdown-table.js"),
) as typeof import("../codegen/markdown-table.ts");

/** A measure, with the machine's one-minute load average when the command ended. */
type Loaded = Measure & { readonly load: number };

/** One command of the peer table: each variant's measures, one per round. */
export interface PeerRow {
  readonly command: string;
  readonly byVariant: Record<"package" | "peer" | "nothing" | "floor", readonly Loaded[]>;
}

/** One variant at one fleet size: each command's measures, one per round. */
export interface FleetRow {
  readonly organizations: number;
  readonly variant: "dynamic" | "plugin" | "python" | "nothing" | "floor";
  readonly byCommand: Record<"up" | "preview (unchanged)" | "refresh" | "destroy", readonly Loaded[]>;
}

/** Where `npm run bench:host` keeps its last run (git-ignored), for this page to show. */
export const HOST_RESULTS = join(root, ".e2e-work/bench-host.json");

/** One command of `npm run bench:host`: medians in milliseconds, ours and the peer's. */
export interface HostRow {
  readonly command: string;
  readonly wallMs: readonly [number, number];
  readonly cpuMs: readonly [number | undefined, number | undefined];
  readonly firstAnswerMs: readonly [number | undefined, number | undefined];
}

/** A run of `npm run bench:host`. */
export interface HostRun {
  readonly started: string;
  /** The commit measured, and whether the tree had changes beside it. */
  readonly commit: string;
  readonly rounds: number;
  readonly rows: readonly HostRow[];
}

// A median that was missing is null once read back from JSON.
const ms = (x: number | null | undefined) => (x == null ? "-" : x.toFixed(1));

/** The table `npm run bench:host` prints: each command in the host alone, ours beside the peer. */
export function hostTable(rows: readonly HostRow[]): string {
  return markdownTable(
    [
      "command",
      "ours ms",
      "peer ms",
      "ours / peer",
      "host CPU ours / peer ms",
      "first answer ours / peer ms",
    ],
    rows.map(({ command, wallMs, cpuMs, firstAnswerMs }) => [
      command,
      ms(wallMs[0]),
      ms(wallMs[1]),
      `${(wallMs[0] / wallMs[1]).toFixed(2)} ×`,
      `${ms(cpuMs[0])} / ${ms(cpuMs[1])}`,
      `${ms(firstAnswerMs[0])} / ${ms(firstAnswerMs[1])}`,
    ]),
  );
}

/** The commit checked out, with "+changes" when the tree differs from it. */
export function currentCommit(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain") ? "+changes" : ""}`;
  } catch {
    return "unknown";
  }
}

/** What this page says of the host alone: the last `npm run bench:host` on this machine, if there is one. */
function hostSection(): string {
  if (!existsSync(HOST_RESULTS))
    return "`npm run bench:host` has not run on this machine: run it before `npm run bench:engine` to show its table here.";
  const run = JSON.parse(readFileSync(HOST_RESULTS, "utf8")) as HostRun;
  const measured = run.commit === currentCommit() ? "this commit" : `commit ${run.commit}`;
  return [
    `\`npm run bench:host\` (${run.started.slice(0, 16).replace("T", " ")} UTC, ${measured}, medians of ${run.rounds} rounds) drives the real dynamic-provider host over gRPC without the engine, whose own second per command hides these milliseconds; "first answer" is when the sandbox answered the first API call, from when the calls were sent:`,
    "",
    hostTable(run.rows),
  ].join("\n");
}

const s = (ms: number) => (ms / 1000).toFixed(2);
const pick = (measures: readonly Loaded[], f: (m: Loaded) => number | undefined) =>
  median(measures.map((m) => f(m) ?? Number.NaN));

/** The peer table: the medians of each command, ours beside the peer, the do-nothing provider and the floor. */
export function peerTable(rows: readonly PeerRow[]): string {
  return markdownTable(
    [
      "command",
      "ours s",
      "peer s",
      "ours / peer",
      "do-nothing s",
      "floor s",
      "calls ours / peer",
      "CPU ours / peer s",
      "first call ours / peer s",
      "our busy share",
      "load",
    ],
    rows.map(({ command, byVariant: v }) => {
      const ours = pick(v.package, (m) => m.wallMs);
      const peer = pick(v.peer, (m) => m.wallMs);
      const busy = pick(v.package, (m) => m.busyMs);
      return [
        command,
        s(ours),
        s(peer),
        `${(ours / peer).toFixed(2)} ×`,
        s(pick(v.nothing, (m) => m.wallMs)),
        s(pick(v.floor, (m) => m.wallMs)),
        `${pick(v.package, (m) => m.calls)} / ${pick(v.peer, (m) => m.calls)}`,
        `${s(pick(v.package, (m) => m.cpuMs))} / ${s(pick(v.peer, (m) => m.cpuMs))}`,
        v.package.some((m) => m.firstCallMs !== undefined)
          ? `${s(pick(v.package, (m) => m.firstCallMs))} / ${s(pick(v.peer, (m) => m.firstCallMs))}`
          : "-",
        `${((100 * busy) / ours).toFixed(0)} %`,
        pick([...v.package, ...v.peer], (m) => m.load).toFixed(1),
      ];
    }),
  );
}

/** Where this package's CPU time differs from the peer's: the provider process, and the program. */
function peerCpuSplit(rows: readonly PeerRow[]): string {
  const diff = (f: (m: Loaded) => number) =>
    rows.map(({ byVariant: v }) => pick(v.package, f) - pick(v.peer, f));
  const provider = diff((m) => m.providerCpuMs);
  const program = diff((m) => m.programCpuMs);
  const range = (xs: number[]) => `${Math.round(Math.min(...xs))} to ${Math.round(Math.max(...xs))} ms`;
  return (
    `Where the CPU goes, ours minus the peer's, per command: the provider process ${range(provider)}, the ` +
    `program and its language host ${range(program)} (each process's CPU is read every 50 ms, so a ` +
    "difference under 50 ms per process is within the reading). The provider's share is the runtime loading its " +
    "schemas (and, for a command that calls the service, its HTTP client, undici), where the peer loads only Node's own `fetch`; " +
    "the program's is this package's modules, where the peer's program runs Pulumi's closure serializer."
  );
}

const VARIANT_NAMES: Record<FleetRow["variant"], string> = {
  dynamic: "dynamic resources",
  plugin: "provider plugin",
  python: "Python on the plugin",
  nothing: "do-nothing provider",
  floor: "floor (components)",
};

/** The fleet table: per size and variant, each command's wall time and calls, memory, 429s and state. */
export function fleetTable(rows: readonly FleetRow[]): string {
  return markdownTable(
    [
      "N",
      "variant",
      "up s",
      "preview s",
      "refresh s",
      "destroy s",
      "calls up / preview / refresh / destroy",
      "CPU of up s",
      "peak calls/s",
      "provider peak RSS MB",
      "429s absorbed",
      "checkpoint bytes (per resource)",
      "load",
    ],
    rows.map(({ organizations, variant, byCommand: c }) => {
      const all = Object.values(c).flat();
      const bytes = pick(c.up, (m) => m.checkpointBytes);
      const resources = pick(c.up, (m) => m.resources);
      return [
        String(organizations),
        VARIANT_NAMES[variant],
        s(pick(c.up, (m) => m.wallMs)),
        s(pick(c["preview (unchanged)"], (m) => m.wallMs)),
        s(pick(c.refresh, (m) => m.wallMs)),
        s(pick(c.destroy, (m) => m.wallMs)),
        (["up", "preview (unchanged)", "refresh", "destroy"] as const)
          .map((command) => String(pick(c[command], (m) => m.calls)))
          .join(" / "),
        s(pick(c.up, (m) => m.cpuMs)),
        String(Math.max(...all.map((m) => m.peakCallsPerSecond))),
        variant === "floor" ? "-" : Math.max(...all.map((m) => m.providerRssMb)).toFixed(0),
        String(all.reduce((sum, m) => sum + m.throttled, 0)),
        `${bytes.toLocaleString("en")} (${Math.round(bytes / resources).toLocaleString("en")})`,
        pick(all, (m) => m.load).toFixed(1),
      ];
    }),
  );
}

/** The fleet's goals, each with its figure, from the largest fleet measured against the smallest. */
export function fleetGoals(rows: readonly FleetRow[]): string[] {
  const sizes = [...new Set(rows.map((r) => r.organizations))].sort((a, b) => a - b);
  const [small, large] = [sizes[0]!, sizes.at(-1)!];
  const row = (n: number, variant: FleetRow["variant"]) =>
    rows.find((r) => r.organizations === n && r.variant === variant)!;
  const up = (n: number, variant: FleetRow["variant"]) => pick(row(n, variant).byCommand.up, (m) => m.wallMs);
  const rss = (n: number, variant: FleetRow["variant"]) =>
    Math.max(
      ...Object.values(row(n, variant).byCommand)
        .flat()
        .map((m) => m.providerRssMb),
    );
  const limit = 1.5 * up(large, "nothing") + 1000;
  // Runs from before the Python fleet was measured have no row of it.
  const python = rows.some((r) => r.variant === "python");
  const growth = (variant: FleetRow["variant"]) => rss(large, variant) - rss(small, variant);
  const refreshListings = pick(row(large, "dynamic").byCommand.refresh, (m) => m.listings);
  const previewCalls = rows
    .filter((r) => r.variant !== "nothing" && r.variant !== "floor")
    .map((r) => pick(r.byCommand["preview (unchanged)"], (m) => m.calls));
  return [
    `- \`up\` at N = ${large}: ${s(up(large, "dynamic"))} s through the dynamic resources, ${s(up(large, "plugin"))} s through the plugin${python ? `, ${s(up(large, "python"))} s from Python through the plugin` : ""}; goal at most 1.5 × the do-nothing provider's ${s(up(large, "nothing"))} s + 1 s = ${s(limit)} s.`,
    `- provider memory from N = ${small} to ${large}: +${growth("dynamic").toFixed(0)} MB (dynamic), +${growth("plugin").toFixed(0)} MB (plugin)${python ? `, +${growth("python").toFixed(0)} MB (the plugin under Python)` : ""}, against +${growth("nothing").toFixed(0)} MB for the do-nothing provider; goal at most 20 MB more than it.`,
    `- an unchanged preview: ${Math.max(...previewCalls)} calls at most, at every size (goal 0), and it proposes nothing (\`--expect-no-changes\`).`,
    `- refresh at N = ${large}: ${refreshListings} listings (goal ${2 * large}: one of webhooks and one of domains per organization).`,
  ];
}

/**
 * Which path a TypeScript program should pick, from the largest fleet measured: the plugin when its
 * `up` there was clearly faster (by a tenth or more), else the dynamic resources.
 */
function pathAdvice(rows: readonly FleetRow[]): string {
  const large = Math.max(...rows.map((r) => r.organizations));
  const small = Math.min(...rows.map((r) => r.organizations));
  const up = (n: number, variant: FleetRow["variant"]) =>
    pick(rows.find((r) => r.organizations === n && r.variant === variant)!.byCommand.up, (m) => m.wallMs);
  const [dynamicLarge, pluginLarge] = [up(large, "dynamic"), up(large, "plugin")];
  const [dynamicSmall, pluginSmall] = [up(small, "dynamic"), up(small, "plugin")];
  const rss = (variant: FleetRow["variant"]) =>
    Math.max(
      ...Object.values(rows.find((r) => r.organizations === large && r.variant === variant)!.byCommand)
        .flat()
        .map((m) => m.providerRssMb),
    ).toFixed(0);
  const measured = `Measured: \`up\` took ${s(dynamicSmall)} s (dynamic) against ${s(pluginSmall)} s (plugin) at N = ${small}, and ${s(dynamicLarge)} s against ${s(pluginLarge)} s at N = ${large}, where the provider's process peaked at ${rss("dynamic")} MB (dynamic) and ${rss("plugin")} MB (plugin, which also constructs every Domain component in its own process).`;
  const pluginAhead = pluginLarge < 0.9 * dynamicLarge;
  const python = rows.some((r) => r.variant === "python")
    ? [
        `From Python, the same fleet through the plugin: \`up\` ${s(up(small, "python"))} s at N = ${small} and ${s(up(large, "python"))} s at N = ${large}, the plugin's process at ${rss("python")} MB, against ${s(pluginLarge)} s for the TypeScript program on the plugin.`,
        "",
      ]
    : [];
  return [
    measured,
    "",
    ...python,
    "- **The dynamic resources** are the default: nothing to declare in `Pulumi.yaml`, types and TSDoc in",
    "  the editor, and the program's own checks (the webhook quota counted before anything is registered).",
    "  They need no plugin process, and their stored provider is one line.",
    pluginAhead
      ? `- **The provider plugin** is worth it for a large fleet in one stack (tens of organizations, hundreds of resources): at N = ${large} its \`up\` was ${(100 * (1 - pluginLarge / dynamicLarge)).toFixed(0)} % faster. It is also the only path for programs in other languages, and for a stack that mixes languages.`
      : `- **The provider plugin** is not clearly faster for a TypeScript program: at N = ${large} its \`up\` took ${(100 * Math.abs(1 - pluginLarge / dynamicLarge)).toFixed(0)} % ${pluginLarge < dynamicLarge ? "less" : "more"} time than the dynamic resources', under the tenth that one round tells apart from the machine's noise. Pick it when the stack mixes languages, or to keep one set of resource types across a platform's programs in several languages.`,
  ].join("\n");
}

/** The chart: `up`'s wall time against the number of organizations, one line per variant. */
export function fleetChart(rows: readonly FleetRow[]): string {
  const sizes = [...new Set(rows.map((r) => r.organizations))].sort((a, b) => a - b);
  const [width, height, left, right, top, bottom] = [640, 360, 56, 180, 24, 44];
  const seconds = rows.map((r) => pick(r.byCommand.up, (m) => m.wallMs) / 1000);
  // A round step between grid lines, at most six of them.
  const highest = Math.max(1, ...seconds);
  const step = [1, 2, 5, 10, 20, 30, 60, 120].find((n) => highest / n <= 6) ?? 300;
  const yMax = Math.ceil(highest / step) * step;
  // The sizes grow geometrically: place them on a logarithmic axis.
  const logs = sizes.map((n) => Math.log(n));
  const x = (n: number) =>
    left + ((Math.log(n) - logs[0]!) / Math.max(1e-9, logs.at(-1)! - logs[0]!)) * (width - left - right);
  const y = (sec: number) => top + (1 - sec / yMax) * (height - top - bottom);
  const colours: Record<FleetRow["variant"], string> = {
    dynamic: "#d1495b",
    plugin: "#00798c",
    python: "#30638e",
    nothing: "#edae49",
    floor: "#66a182",
  };
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    "<title>pulumi up against the number of organizations</title>",
    `<rect width="${width}" height="${height}" fill="white"/>`,
  ];
  for (let tick = 0; tick <= yMax; tick += step) {
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`,
      `<text x="${left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`,
    );
  }
  for (const n of sizes) {
    parts.push(`<text x="${x(n)}" y="${height - bottom + 18}" text-anchor="middle">${n}</text>`);
  }
  parts.push(
    `<text x="${(left + width - right) / 2}" y="${height - 6}" text-anchor="middle">organizations (a Domain and 10 Webhooks each)</text>`,
    `<text transform="translate(14 ${(top + height - bottom) / 2}) rotate(-90)" text-anchor="middle">pulumi up, seconds</text>`,
  );
  const drawn = (Object.keys(colours) as FleetRow["variant"][]).filter((variant) =>
    rows.some((r) => r.variant === variant),
  );
  for (const [i, variant] of drawn.entries()) {
    const points = sizes.map((n) => {
      const row = rows.find((r) => r.organizations === n && r.variant === variant)!;
      return [x(n), y(pick(row.byCommand.up, (m) => m.wallMs) / 1000)] as const;
    });
    parts.push(
      `<polyline fill="none" stroke="${colours[variant]}" stroke-width="2" points="${points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ")}"/>`,
      ...points.map(
        ([px, py]) =>
          `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3" fill="${colours[variant]}"/>`,
      ),
      `<line x1="${width - right + 16}" x2="${width - right + 36}" y1="${top + 10 + i * 20}" y2="${top + 10 + i * 20}" stroke="${colours[variant]}" stroke-width="2"/>`,
      `<text x="${width - right + 42}" y="${top + 14 + i * 20}">${VARIANT_NAMES[variant]}</text>`,
    );
  }
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** Writes docs/performance.md and its chart; answers the paths written. */
export function writePerformanceDoc(run: {
  started: Date;
  peer: readonly PeerRow[];
  fleet: readonly FleetRow[];
  rounds: number;
  fleetRounds: number;
}): string[] {
  const loads = [
    ...run.peer.flatMap((r) => Object.values(r.byVariant).flat()),
    ...run.fleet.flatMap((r) => Object.values(r.byCommand).flat()),
  ].map((m) => m.load);
  const conditions = `Measured ${run.started.toISOString().slice(0, 16).replace("T", " ")} UTC on ${availableParallelism()} cores shared with other work (one-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} while it ran: the column \`load\` gives each row's median), Node ${process.versions.node}, Pulumi ${pinnedPulumiVersion()} built from source, against the sandbox on 127.0.0.1 at 10 requests per second per token.`;
  const doc = `# Performance

<!-- Written by \`npm run bench:engine\` (tools/bench/bench-engine.mts); edit the generator, not this file. -->

${conditions} Wall times depend on that load; CPU times, calls, memory and bytes much less.

## Against a hand-rolled provider

Ten webhooks on a registered domain, made four ways: this package's \`Webhook\`; the peer, a hand-rolled
dynamic provider on \`fetch\` as a team writes one for itself (no validation, a GET per webhook on refresh,
no pacing, no retries); a dynamic provider that does nothing; and components only, the engine's floor.
Medians of ${run.rounds} rounds, each on a new sandbox, interleaved by command: the four stacks stand side
by side, and each command runs on all four, in an order that turns, before the next command, so that the
shared machine's changing load weighs on them alike.
\`preview\`, \`refresh\`, \`replace\` (the first webhook's channel changed) and \`destroy\` run with
\`--skip-preview\` where they change anything, so that each row is one command. CPU is that of the command
and every process it started; "our busy share" is the time a call into this package was in flight, its API
calls included, over the command's wall time; "first call" is when the sandbox answered the command's
first API call, from the command's start.

${peerTable(run.peer)}

${peerCpuSplit(run.peer)}

## A fleet of organizations

N organizations in one stack, each with its own token through a \`connection\`, each a Domain and 10
Webhooks: 14 resources per organization on every path (the Domain's component, its three steps, the ten
webhooks; the plugin constructs the Domain's steps itself). The same fleet runs from a TypeScript program
through the dynamic resources and through the plugin, and from a Python program through the plugin (as a
Python team writes it: \`test/e2e/python-fleet-program/\`). Those three stacks have organizations of
their own on one sandbox, so that the five stacks of one size stand side by side and each command runs on
all five in turn, as above (${run.fleetRounds} round${run.fleetRounds === 1 ? "" : "s"} per size). The provider's peak memory is the largest of its processes over
the four commands; "429s absorbed" counts the sandbox's 429 answers, each waited out and retried by the
client (a 429 that reached the user would have failed the command, and the bench with it).

${fleetTable(run.fleet)}

![pulumi up against the number of organizations](performance-fleet.svg)

${fleetGoals(run.fleet).join("\n")}

## Where the time goes, and what was cut

- **The engine saves the whole checkpoint after every step.** A CPU profile of the CLI (\`pulumi up
  --profiling\`) for the dynamic fleet at N = 30 spent 65 % of its 22.8 s of CPU saving snapshots: JSON
  encoding (22 %), the file backend's MD5 of each write (11 %), encrypting secrets (8 %), and the garbage
  that makes. That cost grows with steps × bytes, so with the square of the fleet: every byte a resource
  keeps in state is paid again at each of the ~850 saves of the fleet's \`up\` (one as each of its 422
  resources starts, one as it ends).
- **The stored provider.** Every dynamic resource keeps its provider's code in its inputs and again in its
  outputs. Pulumi's closure serializer wrote 3.6 KB for it; the package now stores one line that asks the
  runtime contract for the provider by key (\`provider/resource-kit/stored-provider.ts\`): the fleet's
  checkpoint at N = 1 went from 146,847 to 50,541 bytes, from 9.2 KB to 3.2 KB per resource, now smaller than
  the do-nothing provider's. The program no longer loads the closure serializer either (about 0.2 s of CPU
  for each provider it serializes). State written by earlier versions still runs: the runtime contract keeps
  serving it, and an upgrade proposes no change.
- **What state still holds.** Each resource keeps its inputs and outputs, the secrets among them encrypted
  (a connection, a secret key, their salted hashes: 200 to 330 bytes each), and the engine adds a stack
  trace of where the program declared it (about 0.5 KB, the engine's own).
- **The plugin's start.** A project that lists the plugin's folder made the engine start it through the
  Node.js language host, whose plugin runner loads TypeScript and ts-node first; the folder now holds an
  executable \`pulumi-resource-service\` that the engine runs as it is (0.6 s less CPU per command at
  N = 3, and 30 MB less memory).
- **The service's rate, and the engine's parallelism.** An organization's \`up\` makes 13 calls (start and
  finish of its domain, a listing, ten creates): more than 10 in a second, so its last creates wait for the
  window, each holding one of the engine's parallel slots (\`--parallel\` defaults to 4 per core, 8 here)
  meanwhile. The wait is the service's limit, kept; the organizations themselves proceed side by side (the
  fleet table's peak calls per second is over every token, above 10 when they overlap).
- **Start-up.** The dynamic-provider host loads \`@pulumi/pulumi\` (about 0.45 s of CPU, the same for every
  dynamic provider); the runtime contract adds a few milliseconds on require, and loads its schemas on the
  first check and the API client on the first call that needs it (\`npm run bench:webhook\` measures the
  cold start). The client's session and integration areas load when first called. The bundles
  (\`dist/runtime/\`, \`dist/main/\`) hold only the package's own modules: undici, zod and hono are
  required from the project's \`node_modules\` (issue 41), so that a user's \`npm update\` or \`npm audit fix\`
  reaches the code that holds the token. That costs each process all of zod (its locales and its parser
  compiler, which the bundles had left out) and the first request all of undici's entry (109 files, where
  the bundle had carried the agent and request API it uses), measured below. The chunks are read whole as
  they load, so they carry no doc comments, and their code escapes what is not ASCII (V8 keeps any other
  source at two bytes per character). A diff compares the credentials with those state recorded from the resolved
  settings, so an unchanged preview never loads the client. The package changes nothing process-wide in
  the program or in the host it shares with every other dynamic provider (issue 41): it no longer turns on
  Node's compile cache, keeps V8's code of its chunks through a hook on Node's module loader, or sets zod's
  \`jitless\` for the whole process, so each process compiles what it loads and runs.
  The program's load of the package went from 19 to 22 ms to 23 to 24 ms (\`npm run bench:program\`'s load column, two
  interleaved runs). Under the engine (\`npm run bench:engine -- --rounds 3 --skip-fleet\`, one run before
  the change at a load of about 2 and one after at about 3.5), ours against the peer went from 0.88 to
  1.09 times its wall time to 0.88 to 1.06 times, and ours over the peer's CPU from 0.88 to 0.98 to 0.93
  to 1.03: within what three rounds on 2 shared cores tell apart, but \`destroy\` ended at 1.06 times the
  peer's wall time (1.00 before), reported here and left alone. \`npm run bench:host\` was not run again:
  its table below is from before the change.
  Requiring undici and zod from the project (issue 41, item 5) costs each program the whole of zod: the
  load of the package went from 25 to 27 ms to 69 to 72 ms, and ten Webhooks from 190 to 202 ms to 222 to
  232 ms (\`npm run bench:program\`, two interleaved runs of 9 before and after, at a load of about 2.8).
  Under the engine (\`npm run bench:engine -- --skip-fleet --rounds 5\`, at a load of about 1.6), ours
  against the peer is 1.00 to 1.10 times its wall time and 0.98 to 1.13 times its CPU, from 0.93 to 0.98
  and 0.89 to 0.98 in the run before these changes (the peer table below is the full run's, at a load of
  about 3): \`up\` 1.07 ×, the unchanged preview 1.06 × and \`destroy\` 1.10 × end above 1.05 ×, each by
  50 to 110 ms, the time to load zod and undici whole. Reported here and left alone: the user's own
  copies are the point of the change.
- **Node's compile cache is yours to turn on.** Set \`NODE_COMPILE_CACHE\` to a folder in the environment of
  \`pulumi\` (Node 22.1 or later) to have the program and the dynamic-provider host keep V8's compiled code
  of every module they load there, this package's included, from one command to the next.
- **Constructing resources in the program.** Pulumi's SDK records a stack trace on every promise it makes
  while a resource registers (four per property, in \`debuggablePromise\`), and every program runs under
  the source-map formatter that \`pulumi\` installs, which maps every frame of each: about 40 mapped traces
  per Webhook, most of its construction, for traces that only \`PULUMI_DEBUG_PROMISE_LEAKS\` ever shows.
  Each Webhook registers only the properties its type declares (each property costs four of those
  promises). The package no longer swaps \`Error.prepareStackTrace\` while it constructs a resource to skip
  that mapping (issue 41). \`npm run bench:program\` (ten Webhooks in a fresh process,
  medians of 9, two interleaved runs on 2 shared cores): 160 to 197 ms for the package's load and ten
  Webhooks, 69 to 88 ms with the swap, and 91 to 124 ms for the peer's ten \`pulumi.dynamic.Resource\`;
  each Webhook after the first takes 7.3 to 7.4 ms (1.5 to 1.8 with the swap), the peer's 5.2 ms.
- **The change this belongs in: Pulumi's \`debuggablePromise\`.** Proposed to pulumi/pulumi, in
  \`sdk/nodejs/runtime/debuggable.ts\`: record \`_debugStackTrace\` (\`new Error().stack\`) only when
  \`debugPromiseLeaks\` is set (\`PULUMI_DEBUG_PROMISE_LEAKS\`). Its only reader, \`promiseDebugString\`, is
  printed only under that same setting (\`leakedPromises\`); \`_debugId\`, \`_debugCtx\`, the leak candidates
  and the exit check stay as they are, so the default leak message is unchanged. Every Node.js program's
  resources, any provider's, would construct without capturing and mapping those traces. The change is one line: \`Object.defineProperty(p, "_debugStackTrace", ...)\`
  in \`debuggablePromise\` goes inside \`if (debugPromiseLeaks)\`. Measured with \`npm run bench:program\`
  against a copy of \`@pulumi/pulumi\` 3.270 patched so, in the same interleaved runs: 58 to 64 ms for the
  package's load and ten Webhooks, 0.6 to 0.8 ms for each after the first, and 19 to 23 ms for the
  peer's ten (0.4 to 0.5 ms each). Not measured under the engine; not yet sent to pulumi/pulumi.
- **Checks run one at a time.** The engine asks for each resource's Check in turn, before it plans the
  resource, so a check's time counts once per resource on every command's critical path; after the first
  (which loads the schemas, about 17 ms of CPU), one of ours takes about 1 ms.

${hostSection()}

## Which path to pick

A TypeScript or JavaScript program can use the dynamic resources (\`new Webhook(...)\` from
\`@service/pulumi\`) or the provider plugin (the same resources by type token, as Python, Go and YAML
programs use them; [languages.md](languages.md)). Both make the same calls: they share the rate limiter
per token and the listings per organization.

${pathAdvice(run.fleet)}

## How it was measured

\`npm run bench:engine\` (\`--rounds\`, \`--fleet\`, \`--fleet-rounds\`, \`--skip-peer\`, \`--skip-fleet\`); a run with
the default options rewrites this page, and \`--report-only\` writes it again from the last run's measures. The programs are in \`tools/bench/webhooks-program/\` and
\`tools/bench/fleet-program/\`, with the Python fleet of \`test/e2e/python-fleet-program/\` in a virtualenv of
the bench's own (\`tools/bench/python-fleet.mts\`). A probe loaded into every Node process the engine starts
(\`tools/bench/bench-engine-probe.cjs\`) records each provider process's CPU time and peak memory and
each call into the package; GNU \`time\` gives each command's CPU time (the CLI's and that of the
processes it waited for).

[Back to the README](../README.md)
`;
  const paths = [join(root, "docs/performance.md"), join(root, "docs/performance-fleet.svg")];
  writeFileSync(paths[0]!, doc);
  writeFileSync(paths[1]!, fleetChart(run.fleet));
  return paths.map((p) => p.slice(root.length + 1));
}
