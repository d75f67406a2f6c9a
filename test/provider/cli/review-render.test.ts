/**
 * Review's report (provider/cli/review-render.ts). At size (issue 46): a preview of 100,000 steps is
 * reviewed end to end, every change counted (how long it takes is measured by `npm run bench:review`, not
 * here); and the report as a GitHub comment (reviewComment) is the full report when it fits in 65,536
 * characters, else a summary that fits whatever the input, and says how to get the rest. On hostile
 * previews (issue 46), whose every value (resource name, stack and project in the URN, organization,
 * endpoint, channel, filter key and values, replaceReasons, domain name, uuid) carries a payload, the
 * report, with a listing or as a summary, renders none of it (test/helpers/hostile-reports.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readPreview } from "../../../provider/cli/preview-json";
import {
  type LiveListing,
  type OrganizationReview,
  type Review,
  reviewOf,
  type StackReview,
} from "../../../provider/cli/review-model";
import { COMMENT_LIMIT, reviewComment, reviewMarkdown } from "../../../provider/cli/review-render";
import { domainVerification, webhook } from "../../../provider/registry";
import { runCli } from "../../helpers/cli-io";
import { EVERY, expectInert, filtersOf, PAYLOADS, stackOf, urnOf } from "../../helpers/hostile-reports";

const dir = mkdtempSync(join(tmpdir(), "cli-review-render-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLOSING =
  /\nThe full report is [\d,]+ characters, more than a GitHub comment holds \(65,536\): run review with `--format json` for all of it as JSON, or with `--output <file>` to write the full Markdown report to a file\.\n$/;

/** One stack's preview of `steps` Webhook steps: creates, replaces, updates, deletes and sames in turn. */
function bigPreview(steps: number): { file: string; counts: Record<string, number> } {
  const ops = ["create", "replace", "update", "delete", "same"] as const;
  const counts: Record<string, number> = {};
  const state = (name: string, i: number, channel = name) => ({
    urn: `urn:pulumi:dev::infra::${webhook.token}::${name}`,
    type: webhook.token,
    id: `uuid-${i}`,
    inputs: { endpoint: "https://hooks.acme.test/e", channel },
    outputs: { webhookUuid: `uuid-${i}`, owner: { organization: "acme" } },
  });
  const list = Array.from({ length: steps }, (_, i) => {
    const op = ops[i % ops.length]!;
    counts[op] = (counts[op] ?? 0) + 1;
    const name = `hook-${i}`;
    return {
      op,
      urn: state(name, i).urn,
      ...(op === "create"
        ? {}
        : { oldState: { ...state(name, i), ...(op === "replace" ? { delete: true } : {}) } }),
      ...(op === "delete" ? {} : { newState: state(name, i, op === "replace" ? `${name}-v2` : name) }),
      ...(op === "replace" ? { replaceReasons: ["channel"] } : {}),
    };
  });
  const file = join(dir, `preview-${steps}.json`);
  writeFileSync(file, JSON.stringify({ steps: list, changeSummary: counts }));
  return { file, counts };
}

describe("review of a preview of 100,000 steps", () => {
  it("counts every change and the quota, and comments a summary that fits", async () => {
    const { file, counts } = bigPreview(100_000);
    const run = await runCli(["review", "--format", "json", file]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const review = JSON.parse(run.stdout) as Review;
    const [org] = review.organizations;
    expect(org!.organization).toBe("acme");
    const changes = org!.stacks[0]!.changes;
    for (const op of ["create", "replace", "update", "delete"] as const) {
      expect(changes.filter((c) => c.op === op)).toHaveLength(counts[op]!);
    }
    expect(org!.stacks[0]!.unchanged).toEqual({ webhooks: counts.same, domains: 0 });
    expect(org!.quota).toMatchObject({ after: 80_000, peak: 120_000 });

    const comment = reviewComment(review);
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment).toContain(
      "- `infra/dev`: 20,000 creates, 20,000 replaces, 20,000 updates, 20,000 deletes; its 80,000 changes are left out of this summary.",
    );
    expect(comment).toMatch(CLOSING);
    expect(comment).toContain(
      `The full report is ${reviewMarkdown(review).length.toLocaleString("en")} characters`,
    );
  });
});

const quota = (missing: string | null): OrganizationReview["quota"] => ({
  limit: 10,
  source: "stacks",
  after: missing ? null : 3,
  peak: missing ? null : 4,
  unknownToStacks: [],
  missing,
});

const stack = (label: string, changes: number): StackReview => ({
  stack: label,
  file: `${label}.json`,
  changes: Array.from({ length: changes }, (_, i) => ({
    kind: "webhook" as const,
    op: "create" as const,
    name: `${label}-${i}`,
    replaceReasons: [],
    order: undefined,
    rotationStep: null,
    impact: [`\`https://hooks.acme.test/${i}\` starts receiving all records on channel \`${i}\`.`],
  })),
  rotations: [],
  unchanged: { webhooks: 1, domains: 0 },
});

describe("the review as a GitHub comment", () => {
  it("is the full report when it fits", () => {
    const review: Review = {
      version: 1,
      organizations: [
        { organization: "acme", named: true, quota: quota(null), stacks: [stack("infra/dev", 3)] },
      ],
    };
    expect(reviewComment(review)).toBe(reviewMarkdown(review));
  });

  it("stays under 65,536 characters whatever the input, and counts the organizations and stacks it leaves out", () => {
    const long = (n: number) => `${"x".repeat(5000)}-${n}`;
    const organizations: OrganizationReview[] = Array.from({ length: 300 }, (_, o) => ({
      organization: long(o),
      named: o % 2 === 0,
      quota: quota(`the preview of \`${"y".repeat(3000)}\` was made without \`--show-sames\``),
      stacks: Array.from({ length: 40 }, (_, s) => stack(long(s), 2)),
    }));
    const comment = reviewComment({ version: 1, organizations });
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment).toMatch(CLOSING);
    const listedOrganizations = comment.match(/^## Organization/gm)!.length;
    const listedStacks = comment.match(/^- `/gm)!.length;
    expect(listedOrganizations).toBeGreaterThan(0);
    expect(comment).toContain(
      `Not listed here, for room: ${300 - listedOrganizations} more organizations and ${(300 * 40 - listedStacks).toLocaleString("en")} more stacks.`,
    );
  });
});

function previewsOf(p: string, i: number): { files: string[]; texts: string[] } {
  const [stack, project, organization] = [stackOf(`dev${i}`, p), `infra${p}`, `acme${p}`];
  const hook = (s: string, name: string, uuid: string | undefined, channel = p, endpoint = p) => ({
    urn: urnOf(s, project, webhook.token, name),
    type: webhook.token,
    ...(uuid ? { id: uuid } : {}),
    inputs: { endpoint, channel, filters: filtersOf(p) },
    outputs: uuid ? { webhookUuid: uuid, owner: { organization } } : {},
  });
  const domain = (s: string, name: string, domainName: string, uuid?: string) => ({
    urn: urnOf(s, project, domainVerification.token, name),
    type: domainVerification.token,
    ...(uuid ? { id: uuid } : {}),
    inputs: { domainName },
    outputs: uuid ? { domainUuid: uuid, domainName, organization } : {},
  });
  const first = [
    {
      op: "same",
      urn: urnOf(stack, project, webhook.token, `k${p}`),
      oldState: hook(stack, `k${p}`, `u1${p}`),
      newState: hook(stack, `k${p}`, `u1${p}`),
    },
    {
      op: "create",
      urn: urnOf(stack, project, webhook.token, p),
      newState: hook(stack, p, undefined, p, `https://${p}/x`),
    },
    {
      op: "replace",
      urn: urnOf(stack, project, webhook.token, `r${p}`),
      oldState: { ...hook(stack, `r${p}`, `u2${p}`, "old"), delete: true },
      newState: hook(stack, `r${p}`, undefined),
      replaceReasons: [p, "channel"],
    },
    {
      op: "replace",
      urn: urnOf(stack, project, webhook.token, `f${p}`),
      oldState: { ...hook(stack, `f${p}`, `u3${p}`, "old"), pendingReplacement: true },
      newState: hook(stack, `f${p}`, undefined),
      replaceReasons: [p],
    },
    {
      op: "update",
      urn: urnOf(stack, project, webhook.token, `p${p}`),
      oldState: hook(stack, `p${p}`, `u4${p}`),
      newState: hook(stack, `p${p}`, `u4${p}`),
    },
    {
      op: "delete",
      urn: urnOf(stack, project, webhook.token, `d${p}`),
      oldState: hook(stack, `d${p}`, `u5${p}`),
    },
    {
      op: "replace",
      urn: urnOf(stack, project, domainVerification.token, p),
      oldState: { ...domain(stack, p, p, `u6${p}`), delete: true },
      newState: domain(stack, p, `${p}.example`),
      replaceReasons: [p],
    },
    {
      op: "create",
      urn: urnOf(stack, project, domainVerification.token, `n${p}`),
      newState: domain(stack, `n${p}`, p),
    },
    {
      op: "delete",
      urn: urnOf(stack, project, domainVerification.token, `o${p}`),
      oldState: domain(stack, `o${p}`, p, `u7${p}`),
    },
  ];
  // A second stack of the organization, previewed without --show-sames: the quota names it.
  const second = stackOf(`prod${i}`, p);
  const partial = [
    {
      op: "same",
      urn: urnOf(second, project, webhook.token, `k${p}`),
      oldState: hook(second, `k${p}`, `u8${p}`),
      newState: hook(second, `k${p}`, `u8${p}`),
    },
  ];
  // A stack with nothing of any organization yet.
  const fresh = stackOf(`new${i}`, p);
  const created = [
    { op: "create", urn: urnOf(fresh, project, webhook.token, p), newState: hook(fresh, p, undefined) },
  ];
  const texts = [
    JSON.stringify({ steps: first, changeSummary: { same: 1 } }),
    JSON.stringify({ steps: partial, changeSummary: { same: 5 } }),
    JSON.stringify({ steps: created, changeSummary: { create: 1 } }),
  ];
  const files = texts.map((text, n) => {
    const file = join(dir, `preview-${i}-${n}.json`);
    writeFileSync(file, text);
    return file;
  });
  return { files, texts };
}

const REVIEW_HEADINGS = [
  /^Webhook and Domain review$/,
  /^Organization code$/,
  /^Organization of code, which has no webhook or domain yet$/,
  /^code$/,
];

describe("review on hostile previews", () => {
  for (const [i, p] of [...PAYLOADS, EVERY].entries()) {
    it(`renders nothing of ${JSON.stringify(p)}`, async () => {
      const { files, texts } = previewsOf(p, i);
      const run = await runCli(["review", ...files]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expectInert(run.stdout, REVIEW_HEADINGS);
      expect(run.stdout).toContain("**Replace** Webhook");

      // With a listing of the organization (--live), whose webhooks none of the stacks knows of.
      const previews = texts.map((text, n) => readPreview(files[n]!, text));
      const live: LiveListing = {
        organization: `acme${p}`,
        webhooks: [{ uuid: `u9${p}`, endpoint: p, channel: p, filters: [{ key: p, values: [p] }] }],
      };
      // The stack previewed without --show-sames is left out: its own webhooks would count as unknown.
      const known = [previews[0]!, previews[2]!];
      const listed = reviewMarkdown(reviewOf(known, new Map([[previews[0]!.label, live]])));
      expectInert(listed, REVIEW_HEADINGS);
      expect(listed).toContain("Active webhooks that none of these stacks knows of (1):");

      // So many changes that the comment is a summary.
      const many = readPreview("bulk.json", previewsOf(p.repeat(20), i).texts[0]!);
      const stacks = Array.from({ length: 40 }, (_, n) => ({ ...many, label: `${many.label}${n}` }));
      const summary = reviewComment(reviewOf([...previews, ...stacks]));
      expect(summary.length).toBeLessThanOrEqual(COMMENT_LIMIT);
      expect(summary).toMatch(/The full report is [\d,]+ characters, more than a GitHub comment holds/);
      expectInert(summary, REVIEW_HEADINGS);
    });
  }
});
