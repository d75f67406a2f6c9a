/**
 * Audit's report (provider/cli/audit-render.ts) on hostile states and listings (issue 46), whose every
 * value (resource name, stack and project in the URN, organization, endpoint, channel, filter key and
 * values, domain name, uuid) carries a payload: it renders none of it (test/helpers/hostile-reports.ts);
 * each suggested command reads back, in a POSIX shell, as exactly the words it was made of; each
 * TypeScript snippet parses to exactly the values listed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Domain } from "../../../contract/domains/types";
import type { Webhook } from "../../../contract/webhooks/types";
import { auditOrganization, summaryOf } from "../../../provider/cli/audit-model";
import { auditMarkdown } from "../../../provider/cli/audit-render";
import { readState } from "../../../provider/cli/state-export";
import { domainVerification, webhook } from "../../../provider/registry";
import {
  EVERY,
  expectInert,
  filtersOf,
  HIDDEN,
  PAYLOADS,
  stackOf,
  tokensOf,
  urnOf,
} from "../../helpers/hostile-reports";

const dir = mkdtempSync(join(tmpdir(), "cli-injection-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
