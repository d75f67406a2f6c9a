/**
 * `npm run bench:changes`: changes of a webhook that lose no delivery, measured under the real engine
 * while the sandbox creates a session every 150 ms. A rotation of its secret in two steps
 * (SecretRotation), a channel change, a filters change and an endpoint move run in turn, each `pulumi up`
 * with a create that takes a second, first replacing create-before-delete (the default), then with
 * `deleteBeforeReplace`; from a Node.js program through the dynamic resources (its receiver a resource
 * of the program, ordered by the rotation's dependsOn) and from a Python program through the provider
 * plugin (its receiver deployed apart, updated by the bench before each `pulumi up`). Before each
 * update, `service-pulumi review` reads the preview: what it predicted is printed beside what happened.
 * Prints a Markdown table (docs/review.md shows one).
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtPulumi, hermeticEnvironment } from "../engine/pulumi-engine.mts";
import {
  CHANGES,
  type ChangeRow,
  type ChangesProject,
  firstUp,
  runChanges,
  SESSION_INTERVAL_MS,
  SLOW_CREATE_MS,
  startChangesStage,
} from "./changes-stage.mts";
import { preparePythonProgram } from "./python-fleet.mts";

const root = join(import.meta.dirname, "../..");
/** The longest one `pulumi` command may take before the bench gives up on it. */
const COMMAND_TIMEOUT_MS = 300_000;

type Language = "nodejs" | "python";
type Order = "create-before-delete" | "deleteBeforeReplace";

/** A copy of the language's program with its own backend and PULUMI_HOME, removed by `close`. */
function benchProject(cli: string, language: Language): ChangesProject & { close(): void } {
  const work = join(root, ".e2e-work");
  mkdirSync(work, { recursive: true });
  const dir = mkdtempSync(join(work, "changes-"));
  cpSync(
    join(import.meta.dirname, language === "nodejs" ? "changes-program" : "changes-python-program"),
    dir,
    {
      recursive: true,
    },
  );
  if (language === "python") preparePythonProgram(dir, "service-bench-changes-python");
  const home = mkdtempSync(join(tmpdir(), "pulumi-home-"));
  const backend = mkdtempSync(join(tmpdir(), "pulumi-backend-"));
  const env = hermeticEnvironment(cli, home, backend);
  async function run(args: readonly string[]) {
    const child = spawn(cli, [...args, "--non-interactive", "--color", "never"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const all: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      out.push(chunk);
      all.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => all.push(chunk));
    const timer = setTimeout(() => child.kill(), COMMAND_TIMEOUT_MS);
    const status = await new Promise<number | null>((resolve) => child.once("close", resolve));
    clearTimeout(timer);
    if (status !== 0) {
      throw new Error(`\`pulumi ${args.join(" ")}\` (${language}) exited ${status}:\n${Buffer.concat(all)}`);
    }
    return { stdout: Buffer.concat(out).toString("utf8") };
  }
  return {
    dir,
    run,
    close() {
      for (const path of [dir, home, backend]) rmSync(path, { recursive: true, force: true });
    },
  };
}

/** One language and order: a stage of its own, the first `pulumi up`, the changes, then a destroy. */
async function measure(cli: string, language: Language, order: Order): Promise<ChangeRow[]> {
  const stage = await startChangesStage();
  const project = benchProject(cli, language);
  try {
    await firstUp(stage, project, order === "deleteBeforeReplace");
    const rows = await runChanges(stage, project, CHANGES, {
      receiverApart: language === "python",
      review: true,
    });
    await project.run(["destroy", "--yes", "--skip-preview"]);
    return rows;
  } finally {
    await stage.close();
    project.close();
  }
}

/** What review said, in a cell: the rotation step and the order. */
const said = ({ predicted }: ChangeRow) => {
  if (!predicted) return "not reviewed";
  const order =
    predicted.order === "delete-before-replace"
      ? "gap"
      : predicted.order === "create-before-delete"
        ? "overlap"
        : "no replace";
  return `${predicted.rotation}; ${order}`;
};

/** Whether what happened is what review said: a gap loses or delays sessions, an overlap none. */
const held = (row: ChangeRow) => {
  const missed = row.lost + row.late > 0;
  return row.predicted?.order === "delete-before-replace" ? missed || "no loss this run" : !missed;
};

async function main() {
  const cli = builtPulumi();
  if (!cli) throw new Error("No Pulumi CLI is built: run `npm run engine` first.");
  const lines = [
    `Sessions every ${SESSION_INTERVAL_MS} ms; each \`pulumi up\` with a create that takes ${SLOW_CREATE_MS} ms; counted per change from its \`pulumi up\` to the next change's.`,
    "",
    "| Program | Order | Change | Review says | Sessions | Selected | Accepted ≥ 1 | Lost | Late | Bad signature | Twice | Stale | Review right |",
    "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  const programs: Record<Language, string> = {
    nodejs: "Node.js, dynamic resources",
    python: "Python, plugin",
  };
  for (const language of ["nodejs", "python"] as const) {
    for (const order of ["create-before-delete", "deleteBeforeReplace"] as const) {
      process.stderr.write(`${programs[language]}, ${order}...\n`);
      for (const row of await measure(cli, language, order)) {
        const verdict = held(row);
        lines.push(
          `| ${programs[language]} | ${order} | ${row.change} | ${said(row)} | ${row.sessions} | ${row.selected} | ${row.accepted} | ${row.lost} | ${row.late} | ${row.badSignature} | ${row.twice} | ${row.stale} | ${verdict === true ? "yes" : verdict === false ? "no" : verdict} |`,
        );
      }
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

await main();
