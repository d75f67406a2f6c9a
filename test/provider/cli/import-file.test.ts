/**
 * `service-pulumi audit --import-file`: Pulumi's import file of the orphans, against the sandbox,
 * in-process. Names are valid identifiers in every language whatever the channel or hostname holds, unique
 * regardless of case and apart from the states' own; ids are kept as they are; what stderr says for each
 * webhook's secret shows nothing of the input unescaped. test/e2e/adopt.test.ts imports such a file with
 * the real engine.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditedWebhook, OrganizationAudit } from "../../../provider/cli/audit-model";
import { adoptionLines, adoptionOf } from "../../../provider/cli/import-file";
import { webhook as webhookDeclaration } from "../../../provider/registry";
import { runCli } from "../../helpers/cli-io";
import { HOOKS_TOKEN, HOST } from "../../helpers/fixtures";
import { useStage } from "../../helpers/stage";

const dir = mkdtempSync(join(tmpdir(), "cli-import-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stages = useStage();

/** A state as `pulumi stack export` writes it, holding the dynamic Webhook `name` for `uuid`. */
function stateFile(name: string, uuid: string): string {
  const resources = [
    {
      urn: `urn:pulumi:dev::infra::${webhookDeclaration.token}::${name}`,
      type: webhookDeclaration.token,
      id: uuid,
      outputs: {
        webhookUuid: uuid,
        endpoint: `https://${HOST}/service/events`,
        channel: name,
        filters: [{ key: "activity.name", value: "authentication" }],
        owner: { organization: "acme", username: "acme-alice" },
      },
    },
  ];
  const path = join(dir, "dev.json");
  writeFileSync(path, JSON.stringify({ version: 3, deployment: { manifest: {}, resources } }));
  return path;
}

const audit = (args: string[]) =>
  runCli(["audit", "--token", HOOKS_TOKEN, "--base-url", stages.current.sandbox.url, ...args], { cwd: dir });

/** Keywords and the generated programs' own names, in the languages Pulumi generates. */
const NOT_NAMES = ["default", "class", "import", "lambda", "func", "package", "pulumi", "config", "none"];

/** A hostile channel: quotes of every kind, a template, a command substitution, a comment, a backslash. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a template, in a channel, is the attack
const HOSTILE = "x\"'`${process.exit(7)}` $(touch pwned); # \\ ); import os #";

describe("service-pulumi audit --import-file", () => {
  it("writes every orphan with a name that is one identifier in every language, unique and apart from the states' names", async () => {
    const managed = await stages.current.webhookMadeByHand("orders");
    const channels = [
      "orders",
      "ORDERS",
      "orders-EU",
      "order-seu",
      "default",
      "2024",
      "!!!",
      HOSTILE,
      "Class",
    ];
    const orphans = new Map<string, string>();
    for (const channel of channels) orphans.set(await stages.current.webhookMadeByHand(channel), channel);

    const run = await audit(["--state", stateFile("orders", managed), "--import-file", "adopt me.json"]);
    expect(run.code).toBe(1);
    const file = JSON.parse(readFileSync(join(dir, "adopt me.json"), "utf8"));
    const byId = new Map<string, string>(
      file.resources.map((r: { id: string; name: string }) => [r.id, r.name]),
    );
    // The host that the managed webhook targets is in no state: adopted too, first.
    expect(file.resources[0]).toEqual({
      type: "service:index:DomainVerification",
      name: "hooksAcmeTest",
      id: HOST,
    });
    const names = [...orphans.keys()].map((uuid) => [orphans.get(uuid), byId.get(uuid)]);
    expect(Object.fromEntries(names)).toEqual({
      orders: expect.stringMatching(/^orders[23]$/),
      ORDERS: expect.stringMatching(/^orders[23]$/),
      // Other names but for case, which a generator that changes the case of names would make one: the
      // second in the report's order takes a number.
      "order-seu": "orderSeu",
      "orders-EU": "ordersEu2",
      default: "defaultWebhook",
      "2024": "webhook2024",
      "!!!": expect.stringMatching(/^webhook[0-9a-f]{8}$/),
      [HOSTILE]: "xProcessExit7TouchPwnedImportOs",
      Class: "classWebhook",
    });
    const all = [...byId.values()];
    for (const name of all) {
      expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(NOT_NAMES).not.toContain(name.toLowerCase());
    }
    expect(new Set(all.map((n) => n.toLowerCase())).size).toBe(all.length);
    expect(file.resources.filter((r: { type: string }) => r.type === "service:index:Webhook")).toHaveLength(
      channels.length,
    );

    // One line for the file, one for the secrets, one per webhook; the path quoted as one shell word.
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toContain("`pulumi import --file 'adopt me.json' --out <program file>`");
    expect(lines).toHaveLength(2 + channels.length);
    const name = byId.get([...orphans.keys()][7]!)!;
    expect(lines).toContain(
      `- ${name} (webhook ${[...orphans.keys()][7]}): \`pulumi config set --secret ${name}SecretKey\` (it asks for the key), then in its arguments \`secretKey: config.requireSecret("${name}SecretKey")\` for \`secretKey: ""\` in TypeScript, \`secret_key=config.require_secret("${name}SecretKey")\` for \`secret_key=""\` in Python.`,
    );
    expect(run.stderr).not.toContain("process.exit");
  });

  it("writes nothing when nothing is to adopt, and is refused beside --deactivate-orphans", async () => {
    const managed = await stages.current.webhookMadeByHand("orders");
    const state = stateFile("orders", managed);
    // The host is in use by the managed webhook but in no state: adopt it, then nothing is left.
    const first = await audit(["--state", state, "--import-file", "first.json"]);
    expect(JSON.parse(readFileSync(join(dir, "first.json"), "utf8")).resources).toHaveLength(1);
    expect(first.stderr.split("\n")).toHaveLength(2);

    const refused = await audit(["--state", state, "--import-file", "x.json", "--deactivate-orphans"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "service-pulumi audit: --import-file adopts the orphans and --deactivate-orphans deactivates them: give one of them.\n",
    );
    expect(existsSync(join(dir, "x.json"))).toBe(false);
  });
});

/** An audit of one organization with these orphaned webhooks. */
function organization(name: string, hooks: Partial<AuditedWebhook>[]): OrganizationAudit {
  return {
    organization: name,
    stacks: [],
    quota: { used: hooks.length, limit: 10 },
    requests: { webhooks: 1, domains: 1 },
    webhooks: hooks.map((hook) => ({
      uuid: "u",
      status: "orphaned",
      endpoint: undefined,
      secretEndpoint: false,
      channel: null,
      delivers: "",
      stacks: [],
      adopt: null,
      next: null,
      ...hook,
    })),
    domains: [],
  };
}

describe("the import file of an audit", () => {
  it("keeps a listed id as it is, in JSON, and shows it escaped, on one line", () => {
    const uuid = "1234\n- evil (webhook x): `rm -rf /`\u202e";
    const adoption = adoptionOf([organization("acme", [{ uuid, channel: null }])], [])!;
    expect(JSON.parse(JSON.stringify(adoption.file)).resources[0].id).toBe(uuid);
    const lines = adoptionLines("adopt.json", adoption);
    expect(lines.every((line) => !line.includes("\n") && !line.includes("\u202e"))).toBe(true);
    expect(lines[2]).toContain("(webhook 1234\\u000a- evil (webhook x): `rm -rf /`\\u202e)");
    // A channel kept secret by a state gives the name from the uuid's letters and digits.
    expect(adoption.file.resources[0]!.name).toBe("webhook1234Evil");
  });

  it("is refused when two organizations have orphans: one stack's provider reads one organization's", () => {
    expect(() =>
      adoptionOf(
        [organization("acme", [{ uuid: "a", channel: "a" }]), organization("globex", [{ uuid: "b" }])],
        [],
      ),
    ).toThrow(/organizations acme and globex both have objects to adopt/);
  });
});
