/**
 * `npm run bench:review`: how long `service-pulumi review` takes, from the command to its exit, on the
 * preview of one stack with 25,000 and with 100,000 Webhook steps (creates, replaces of either order,
 * updates, deletes and unchanged webhooks in turn), as Markdown and as JSON, and how long its output is.
 * The goal (issue 46) is under 2 s for 100,000 steps. The built program runs in a fresh process per
 * round, as in CI; the figures are medians of `--rounds` (default 3). Then, in this process, where the
 * time of one review goes: reading the preview, the model, the full Markdown, the GitHub comment.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const DIST = join(import.meta.dirname, "../../dist/provider/cli");
const CLI = join(DIST, "main.js");
const SIZES = [25_000, 100_000];
const GOAL_MS = 2000;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
/** The dynamic Webhook's type token (provider/registry.ts), as a preview names it. */
const WEBHOOK_TYPE = "pulumi-nodejs:dynamic/service:Webhook";

/** One stack's preview JSON with `steps` Webhook steps, as `pulumi preview --json --show-sames` writes it. */
function previewOf(steps: number): string {
  const urn = (name: string) => `urn:pulumi:dev::infra::${WEBHOOK_TYPE}::${name}`;
  const state = (name: string, i: number, channel = name) => ({
    urn: urn(name),
    type: WEBHOOK_TYPE,
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    inputs: { endpoint: "https://hooks.acme.test/service/events", channel, secretKey: "[secret]" },
    outputs: {
      webhookUuid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      channel,
      filters: [{ key: "activity.name", value: "authentication" }],
      owner: { organization: "acme" },
    },
  });
  const ops = ["create", "replace", "replace-first", "update", "delete", "same"] as const;
  const summary: Record<string, number> = {};
  const list = Array.from({ length: steps }, (_, i) => {
    const name = `hook-${i}`;
    const op = ops[i % ops.length]!;
    const kind = op === "replace-first" ? "replace" : op;
    summary[kind] = (summary[kind] ?? 0) + 1;
    const before = { ...state(name, i), ...(op === "replace-first" ? { pendingReplacement: true } : {}) };
    const after = state(name, i, kind === "replace" ? `${name}-v2` : name);
    return {
      op: kind,
      urn: urn(name),
      ...(op === "create" ? {} : { oldState: op === "replace" ? { ...before, delete: true } : before }),
      ...(op === "delete" ? {} : { newState: after }),
      ...(kind === "replace" ? { replaceReasons: ["channel"] } : {}),
    };
  });
  return JSON.stringify({ config: {}, steps: list, changeSummary: summary });
}

/** The time of each part of one review of `file`, in this process, from the built modules. */
function phases(file: string): string {
  const require = createRequire(import.meta.url);
  const { readPreview } = require(join(DIST, "preview-json.js"));
  const { reviewOf } = require(join(DIST, "review-model.js"));
  const { reviewComment, reviewMarkdown } = require(join(DIST, "review-render.js"));
  const parts: string[] = [];
  const timed = <T,>(name: string, run: () => T): T => {
    const started = performance.now();
    const result = run();
    parts.push(`${name} ${Math.round(performance.now() - started)} ms`);
    return result;
  };
  const preview = timed("reading", () => readPreview(file, readFileSync(file, "utf8")));
  const review = timed("model", () => reviewOf([preview]));
  timed("full Markdown", () => reviewMarkdown(review));
  timed("comment", () => reviewComment(review));
  return parts.join(", ");
}

const dir = mkdtempSync(join(tmpdir(), "bench-review-"));
try {
  for (const steps of SIZES) {
    const file = join(dir, `preview-${steps}.json`);
    writeFileSync(file, previewOf(steps));
    const mb = (statSync(file).size / 1e6).toFixed(1);
    for (const format of ["markdown", "json"]) {
      const times: number[] = [];
      let chars = 0;
      for (let round = 0; round < Number(values.rounds); round++) {
        const started = performance.now();
        const run = spawnSync(process.execPath, [CLI, "review", "--format", format, file], {
          encoding: "utf8",
          maxBuffer: 1 << 30,
        });
        times.push(performance.now() - started);
        if (run.status !== 0) throw new Error(`review of ${steps} steps exited ${run.status}: ${run.stderr}`);
        chars = run.stdout.length;
      }
      console.log(
        `review, ${steps.toLocaleString("en")} steps (${mb} MB of preview JSON), --format ${format}: median ${Math.round(median(times))} ms over ${times.length} runs, ${chars.toLocaleString("en")} characters out (goal < ${GOAL_MS} ms)`,
      );
    }
    console.log(`  in one process: ${phases(file)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
