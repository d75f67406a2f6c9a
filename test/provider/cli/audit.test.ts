/**
 * `service-pulumi audit` against the sandbox, in-process, on states shaped as `pulumi stack export`
 * writes them (test/e2e/audit.test.ts runs it on the real engine's): the classification, the quota, one
 * listing of each kind, the adopt commands, deactivating orphans only when asked, the exit codes, one line
 * per failure (another project, another organization's token, 503 and 429), and never a secret.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { webhook as webhookDeclaration } from "../../../provider/registry";
import { oneOfEachAuditReport } from "../../helpers/audit-report";
import {
  envelope,
  fakeApi,
  HOOK,
  hookResource,
  listedWebhook,
  stackResource,
  stateOf,
  TYPE,
  urnOf,
  useCliFolder,
} from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";
import { HOOKS_TOKEN, OTHER_TOKEN, ROTATED_TOKEN, SECRET } from "../../helpers/fixtures";
import { expectNoSecretIn, type Stage, startStage } from "../../helpers/stage";

const dir = mkdtempSync(join(tmpdir(), "cli-audit-"));
let stage: Stage;
beforeAll(async () => {
  stage = await startStage();
  await stage.registerHost();
});
afterAll(async () => {
  await stage?.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await stage.clearFaults();
  for (const uuid of await stage.active()) await stage.api("POST", `/v2/webhooks/${uuid}/deactivate`);
});

/** A state as `pulumi stack export` writes it, holding `hooks` (name to uuid) as dynamic Webhooks. */
function stateFile(stack: string, hooks: Record<string, string>, project = "infra"): string {
  const resources = [
    stackResource(stack, project),
    ...Object.entries(hooks).map(([name, uuid]) => {
      // Stored encrypted by the engine; plain here, to show that audit never reads it.
      const hook = hookResource(stack, name, uuid, { secretKeyHash: SECRET });
      return {
        ...hook,
        urn: urnOf(stack, name, TYPE, project),
        inputs: { ...hook.inputs, secretKey: SECRET },
      };
    }),
  ];
  const path = join(dir, `${project}-${stack}.json`);
  writeFileSync(path, JSON.stringify(stateOf(resources)));
  return path;
}

const createHook = (channel: string) => stage.webhookMadeByHand(channel);

const audit = (args: string[], options: { answer?: boolean; cwd?: string } = {}) =>
  runCli(["audit", "--token", HOOKS_TOKEN, "--base-url", stage.sandbox.url, ...args], {
    cwd: dir,
    ...options,
  });

describe("service-pulumi audit", () => {
  it("classifies managed, conflicting, orphaned and drifted webhooks in one listing of each kind", async () => {
    const [orders, shared, byHand] = [
      await createHook("orders"),
      await createHook("shared"),
      await createHook("by-hand"),
    ];
    const drifted = await createHook("gone");
    await stage.api("POST", `/v2/webhooks/${drifted}/deactivate`);
    const dev = stateFile("dev", { orders, shared, gone: drifted });
    const prod = stateFile("prod", { shared });
    const [domain] = (await stage.api("POST", "/v2/search/domains", { body: {} })).json.items as {
      domain_uuid: string;
    }[];

    const mark = stage.mark();
    const run = await audit(["--state", dev, "--state", prod]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(1);
    expect(stage.callsSince(mark, "/v2/search/domains")).toBe(1);
    expect(stage.callsSince(mark)).toBe(2);
    const adoptTs = `new Webhook("by-hand", { endpoint: "${HOOK}", channel: "by-hand", filters: [{"key":"activity.name","value":"authentication"}], secretKey, adoptWebhookUuid: "${byHand}" })`;
    expect(run.stdout.split("\n")).toEqual(
      oneOfEachAuditReport({
        stacks: ["infra/dev", "infra/prod"],
        webhooks: [
          `- **conflict** webhook \`${shared}\`: \`${HOOK}\`, \`authentication\` records on channel \`shared\`, in \`infra/dev\` (\`shared\`) and \`infra/prod\` (\`shared\`)`,
          `  - each of \`infra/dev\` and \`infra/prod\` would change or delete it: keep it in \`infra/dev\`, and remove it from the others: \`pulumi state delete urn:pulumi:prod::infra::${webhookDeclaration.token}::shared --stack prod --yes\` in project \`infra\`'s folder.`,
          `- **orphaned** webhook \`${byHand}\`: \`${HOOK}\`, \`authentication\` records on channel \`by-hand\``,
          "  - in no stack's state, it uses a slot of the quota: adopt it, or deactivate it with --deactivate-orphans.",
          `  - adopt with the provider plugin: \`pulumi import service:index:Webhook by-hand ${byHand}\``,
          `  - adopt with the TypeScript Webhook: \`${adoptTs}\``,
          `- **drifted** webhook \`${drifted}\`: \`${HOOK}\`, \`authentication\` records on channel \`gone\`, in \`infra/dev\` (\`gone\`)`,
          "  - no longer active: run `pulumi refresh --stack dev` in project `infra`'s folder, which drops it from the state (the next `pulumi up` creates it again).",
          `- **managed** webhook \`${orders}\`: \`${HOOK}\`, \`authentication\` records on channel \`orders\`, in \`infra/dev\` (\`orders\`)`,
        ],
        domainUuid: domain!.domain_uuid,
      }),
    );
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(HOOKS_TOKEN);
    }

    const json = JSON.parse((await audit(["--json", "--state", dev, "--state", prod])).stdout);
    expect(json).toMatchObject({
      version: 1,
      summary: { managed: 1, conflict: 1, orphaned: 1, drifted: 1, unmanaged: 1 },
      deactivated: { webhooks: [], domains: [] },
      exitCode: 1,
    });
    expect(json.organizations[0]).toMatchObject({
      organization: "acme",
      quota: { used: 3, limit: 10 },
      requests: { webhooks: 1, domains: 1 },
    });
  });

  it("deactivates orphans only when confirmed, never a managed or conflicting one, and then exits 0", async () => {
    const [orders, shared, byHand] = [
      await createHook("orders"),
      await createHook("shared"),
      await createHook("by-hand"),
    ];
    const dev = stateFile("dev", { orders, shared });
    const prod = stateFile("prod", { shared });

    const declined = await audit(["--state", dev, "--state", prod, "--deactivate-orphans"], {
      answer: false,
    });
    expect(declined.code).toBe(1);
    const named = `webhook ${byHand} of organization acme: ${HOOK}, channel by-hand`;
    // Each orphan is named before the question, which then says how many.
    expect(declined.stderr).toBe(
      `To deactivate: ${named}.\nNothing was deactivated: answer yes at the prompt, or give --yes.\n`,
    );
    expect(declined.asked).toEqual([
      "Deactivate the 1 webhook and 0 domains named above? There is no way back.",
    ]);
    expect((await stage.active()).sort()).toEqual([orders, shared, byHand].sort());

    const confirmed = await audit(["--state", dev, "--state", prod, "--deactivate-orphans"], {
      answer: true,
    });
    expect(confirmed.stderr).toBe(`To deactivate: ${named}.\nDeactivated ${named}.\n`);
    // The conflict is left as it was, and still fails the audit.
    expect(confirmed.code).toBe(1);
    expect(confirmed.stdout).toContain(`- **orphaned** webhook \`${byHand}\` (deactivated now):`);
    expect(confirmed.stdout).toContain("1 conflicting, 1 orphaned; 1 orphaned deactivated now. Exit code 1.");
    expect((await stage.active()).sort()).toEqual([orders, shared].sort());

    const again = await audit(["--state", dev]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\n## Result\n\nClean: .* Exit code 0\.\n$/);
  });

  it("names the file and the problem in one line, exit 2, and deactivates nothing", async () => {
    const orders = await createHook("orders");
    await createHook("by-hand");
    const dev = stateFile("dev", { orders });
    const project = join(dir, "other-project");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "Pulumi.yaml"), "name: billing\nruntime: nodejs\n");
    const preview = join(dir, "preview.json");
    writeFileSync(preview, JSON.stringify({ steps: [] }));

    const cases: [string[], RegExp][] = [
      [
        [],
        /^service-pulumi audit: no stacks to audit: give --state <export\.json> \(repeatable\) or --stacks/,
      ],
      [["--state", dev, "--yes"], /--yes goes with --deactivate-orphans: give both, or neither/],
      [
        ["--state", dev, "--orphan", orders],
        /--orphan goes with --deactivate-orphans: give both, or neither/,
      ],
      [
        ["--state", dev, "--deactivate-orphans", "--max-deactivations", "two"],
        /--max-deactivations two is not a count: give a whole number, 0 or more/,
      ],
      [
        ["--state", join(dir, "missing.json")],
        /missing\.json: cannot be read \(ENOENT\): give a file written by `pulumi stack export/,
      ],
      [["--state", preview], /preview\.json: a preview's JSON, not a stack's state/],
      [
        ["--state", dev, "--cwd", project],
        /infra-dev\.json: the state of infra\/dev, of project infra, but .*other-project is project billing's folder/,
      ],
      [
        ["--state", dev, "--state", dev, "--deactivate-orphans", "--yes"],
        /infra-dev\.json: a second state of infra\/dev \(.*infra-dev\.json is the first\): give each stack once\. A state imported into another stack keeps/,
      ],
    ];
    for (const [argv, message] of cases) {
      const run = await audit(argv);
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stdout).toBe("");
    }
    expect(await stage.active()).toHaveLength(2);
  });

  it("refuses a token of another organization than the state's", async () => {
    const orders = await createHook("orders");
    const dev = stateFile("dev", { orders });
    const empty = await runCli(
      ["audit", "--token", OTHER_TOKEN, "--base-url", stage.sandbox.url, "--state", dev],
      { cwd: dir },
    );
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      /^.*infra-dev\.json: the token reaches an organization with no active webhook and no registered domain, but infra\/dev's state holds 1 of acme's: give acme's token/,
    );
    // Once globex has a domain, its name is known, and the message says which organization the token reaches.
    const globexHost = "hooks.globex.test";
    await stage.registerHost(globexHost, OTHER_TOKEN);
    const other = await runCli(
      ["audit", "--token", OTHER_TOKEN, "--base-url", stage.sandbox.url, "--state", dev],
      { cwd: dir },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /infra-dev\.json: infra\/dev's state holds objects of organization acme, but its token reaches organization globex: give acme's token/,
    );
    expect(other.stderr).not.toContain(OTHER_TOKEN);
  });

  it("counts a resource the program only reads (external) as held by no stack", async () => {
    const [orders, read] = [await createHook("orders"), await createHook("read")];
    const path = stateFile("dev", { orders, read });
    const state = JSON.parse(readFileSync(path, "utf8"));
    state.deployment.resources[2].external = true;
    writeFileSync(path, JSON.stringify(state));
    const run = await audit(["--json", "--state", path]);
    const statuses = Object.fromEntries(
      JSON.parse(run.stdout).organizations[0].webhooks.map((w: { uuid: string; status: string }) => [
        w.uuid,
        w.status,
      ]),
    );
    expect(statuses).toEqual({ [orders]: "managed", [read]: "orphaned" });
  });

  it("leaves out, and names, what a stack's resources reach in another organization with their own connection", async () => {
    const orders = await createHook("orders");
    const path = stateFile("fleet", { orders, theirs: "00000000-0000-4000-8000-000000000001" });
    const state = JSON.parse(readFileSync(path, "utf8"));
    state.deployment.resources[2].outputs.owner.organization = "globex";
    writeFileSync(path, JSON.stringify(state));
    const run = await audit(["--state", path]);
    expect(run.stderr).toBe(
      "infra/fleet: 1 of its objects belong to globex, which its token does not reach (their resources give their own connection): not audited here; audit them with that organization's token (--token).\n",
    );
    expect(run.stdout).toContain(`- **managed** webhook \`${orders}\``);
    expect(run.stdout).not.toContain("drifted");
  });

  it("reports a 503 or a 429 the retries did not get past in one line, exit 2", async () => {
    vi.stubEnv("SERVICE_RETRY_BUDGET_SECONDS", "0.5");
    const dev = stateFile("dev", {});
    for (const status of [503, 429]) {
      stage.sandbox.addFault({ method: "POST", path: "/v2/search/webhooks", status, count: 50 });
      // A token no earlier test used: its client is made now, with this budget.
      const run = await runCli(
        ["audit", "--token", ROTATED_TOKEN, "--base-url", stage.sandbox.url, "--state", dev],
        { cwd: dir },
      );
      expect(run.code, String(status)).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `^infra-dev\\.json|^infra/dev: listing the organization's webhooks failed: POST http://127\\.0\\.0\\.1:\\d+/v2/search/webhooks answered ${status}`,
        ),
      );
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      await stage.clearFaults();
    }
  });
});

describe("service-pulumi audit in a project's folder", () => {
  it("takes a state's credentials from the flags or the environment, never from the stack its URNs name", async () => {
    const folder = join(dir, "infra-folder");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "Pulumi.yaml"), "name: infra\nruntime: nodejs\n");
    const dev = stateFile("dev", {});
    // No Pulumi CLI: were the stack's config read, the run would fail for want of it.
    vi.stubEnv("PATH", join(dir, "no-such-folder"));
    const without = await runCli(["audit", "--state", dev], { cwd: folder });
    expect(without.code).toBe(2);
    expect(without.stderr).toBe(
      "infra/dev: no API token: give --token, set SERVICE_API_TOKEN, or name the stack with --stacks in its project folder, where its service:token is set (`pulumi config set --secret service:token …`).\n",
    );
    vi.stubEnv("SERVICE_API_TOKEN", HOOKS_TOKEN);
    vi.stubEnv("SERVICE_BASE_URL", stage.sandbox.url);
    const fromEnv = await runCli(["audit", "--state", dev], { cwd: folder });
    expect(fromEnv.stderr).toBe("");
    // The listing ran with the environment's credentials (the domain no kept webhook targets is an orphan).
    expect(fromEnv.stdout).toContain("## Organization `acme`");
    expect(fromEnv.code).toBe(1);
  });
});

/**
 * Audit --deactivate-orphans on states and listings that an attacker could write: nothing managed is
 * deactivated when the picture is not whole. Each test counts what the sandbox deactivated.
 */
describe("audit --deactivate-orphans on a picture that is not whole", () => {
  // What the file's stage printed and stored holds no planted secret.
  afterAll(() => expectNoSecretIn([], stage));
  const inputs = useCliFolder("cli-audit-hostile-");

  const deactivating = (args: string[]) =>
    runCli(
      [
        "audit",
        "--token",
        HOOKS_TOKEN,
        "--base-url",
        stage.sandbox.url,
        "--deactivate-orphans",
        "--yes",
        ...args,
      ],
      {
        cwd: inputs.dir,
      },
    );

  it("keeps a managed webhook whose endpoint the state holds as a secret", async () => {
    const hidden = await createHook("hidden");
    const orphan = await createHook("by-hand");
    const state = inputs.writeJson(
      "secret-member.json",
      stateOf([
        stackResource("dev"),
        {
          // The uuid is the resource's id, even where no output member holds it.
          ...hookResource("dev", "hidden", hidden, { endpoint: envelope("AAAA"), webhookUuid: undefined }),
          inputs: { endpoint: envelope("BBBB"), channel: "hidden" },
        },
      ]),
    );
    const run = await deactivating(["--state", state]);
    expect(run.code).toBe(0);
    expect((await stage.active()).sort()).toEqual([hidden]);
    expect(run.stderr).toContain(`Deactivated webhook ${orphan} of organization acme`);
    expect(run.stdout).toMatch(new RegExp(`managed\\*\\* webhook \`${hidden}\``));
  });

  it("refuses, deactivating nothing, for an empty, a foreign, an owner-less, an unread or a pending state", async () => {
    const managed = await createHook("managed");
    await createHook("by-hand");
    const bucket = {
      urn: "urn:pulumi:dev::infra::aws:s3/bucket:Bucket::site",
      type: "aws:s3/bucket:Bucket",
      id: "site-1234",
    };
    const cases: [string, unknown, RegExp][] = [
      [
        "foreign",
        stateOf([stackResource("dev"), bucket]),
        /^service-pulumi audit --deactivate-orphans: .*foreign\.json: the state of infra\/dev holds no Webhook or Domain of organization acme, so against it every object of acme looks orphaned: give the states of the stacks that manage acme's objects, and leave this one out; nothing was deactivated\.\n$/,
      ],
      [
        "ownerless",
        stateOf([stackResource("dev"), hookResource("dev", "managed", managed, { owner: undefined })]),
        new RegExp(
          `ownerless\\.json: webhook ${managed} \\(urn:pulumi:dev::infra::.*::managed\\) of infra/dev records no owner, so which organization's it is is unknown: run \`pulumi refresh --stack dev\` in project infra's folder to record it, then audit again; nothing was deactivated\\.\\n$`,
        ),
      ],
      [
        "owner-secret",
        stateOf([stackResource("dev"), hookResource("dev", "managed", managed, { owner: envelope("CCCC") })]),
        /owner-secret\.json: webhook .* keeps its owner secret, so which organization's it is is unknown: deactivate orphans without --deactivate-orphans, by hand, once you have checked each; nothing was deactivated\.\n$/,
      ],
      [
        "no-id",
        stateOf([stackResource("dev"), { ...hookResource("dev", "managed", managed), id: undefined }]),
        /no-id\.json: urn:pulumi:dev::infra::.*::managed of infra\/dev could not be read \(it has no id\), so what it stands for is unknown: run `pulumi refresh --stack dev` in project infra's folder, then audit again; nothing was deactivated\.\n$/,
      ],
      [
        "malformed",
        stateOf([stackResource("dev"), hookResource("dev", "managed", managed, { filters: "all" })]),
        /malformed\.json: .* could not be read \(its filters cannot be read\)/,
      ],
      [
        "pending",
        stateOf([stackResource("dev"), hookResource("dev", "managed", managed)], {
          pending_operations: [{ resource: { urn: urnOf("dev", "new-one"), type: TYPE }, type: "creating" }],
        }),
        /pending\.json: urn:pulumi:dev::infra::.*::new-one of infra\/dev could not be read \(an interrupted update left an operation on it pending/,
      ],
    ];
    for (const [name, state, message] of cases) {
      const run = await deactivating(["--state", inputs.writeJson(`${name}.json`, state)]);
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(message);
      expect(run.stderr.trimEnd().split("\n"), name).toHaveLength(1);
      // The report the refusal asks the reader to look at is printed all the same.
      expect(run.stdout, name).toMatch(/^# Audit\n[\s\S]*Exit code 2\.\n$/);
      expect(await stage.active(), name).toHaveLength(2);
    }
    // An empty export of a named stack: the state of a stack with nothing in it.
    const { folder, pulumi } = inputs.projectFolder("empty-project");
    pulumi.config("dev", {});
    pulumi.state("dev", stateOf([]));
    const empty = await runCli(
      [
        "audit",
        "--token",
        HOOKS_TOKEN,
        "--base-url",
        stage.sandbox.url,
        "--stacks",
        "dev",
        "--deactivate-orphans",
        "--yes",
      ],
      { cwd: folder },
    );
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      /^service-pulumi audit --deactivate-orphans: stack dev: the state of infra\/dev holds no Webhook or Domain of organization acme/,
    );
    expect(await stage.active()).toHaveLength(2);
  });

  it("deactivates only the orphans --orphan names, and none past --max-deactivations", async () => {
    const managed = await createHook("managed");
    const [first, second] = [await createHook("first"), await createHook("second")];
    const state = inputs.writeJson(
      "named.json",
      stateOf([stackResource("dev"), hookResource("dev", "managed", managed)]),
    );

    const capped = await deactivating(["--state", state, "--max-deactivations", "1"]);
    expect(capped.code).toBe(2);
    expect(capped.stderr).toBe(
      "service-pulumi audit --deactivate-orphans: 2 orphans would be deactivated, more than --max-deactivations 1: read the report, then name the ones to deactivate with --orphan <uuid>; nothing was deactivated.\n",
    );
    const notOrphan = await deactivating(["--state", state, "--orphan", managed]);
    expect(notOrphan.code).toBe(2);
    expect(notOrphan.stderr).toBe(
      `service-pulumi audit --deactivate-orphans: --orphan ${managed} is managed, not orphaned: give only uuids the report lists as orphaned; nothing was deactivated.\n`,
    );
    expect((await stage.active()).sort()).toEqual([managed, first, second].sort());

    const named = await deactivating(["--state", state, "--orphan", first, "--max-deactivations", "1"]);
    expect(named.stderr).toBe(
      `To deactivate: webhook ${first} of organization acme: ${HOOK}, channel first.\nDeactivated webhook ${first} of organization acme: ${HOOK}, channel first.\n`,
    );
    expect((await stage.active()).sort()).toEqual([managed, second].sort());
    // The orphan left is still a finding.
    expect(named.code).toBe(1);
  });

  it("refuses when the listing cannot be matched one to one with the states", async () => {
    const globex = { organization: { name: "globex" }, user: { username: "acme-alice" } };
    const answers: Record<string, unknown[]> = {
      twice: [listedWebhook("u-managed"), listedWebhook("u-orphan"), listedWebhook("u-orphan")],
      foreign: [listedWebhook("u-managed"), listedWebhook("u-orphan", globex)],
    };
    for (const [name, items] of Object.entries(answers)) {
      const api = await fakeApi(() => ({ items, next_cursor: null }));
      const state = inputs.writeJson(
        "listed.json",
        stateOf([stackResource("dev"), hookResource("dev", "managed", "u-managed")]),
      );
      const run = await runCli(
        [
          "audit",
          "--token",
          HOOKS_TOKEN,
          "--base-url",
          api.url,
          "--state",
          state,
          "--deactivate-orphans",
          "--yes",
        ],
        { cwd: inputs.dir },
      );
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(
        name === "twice"
          ? /the listing of organization acme shows u-orphan twice, so it cannot be matched one to one with the states/
          : /the listing of organization acme shows u-orphan as organization globex's, so it cannot be matched/,
      );
      expect(
        api.seen.filter((r) => r.path.includes("deactivate")),
        name,
      ).toHaveLength(0);
    }
  });
});
