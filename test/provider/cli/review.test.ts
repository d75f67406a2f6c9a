/**
 * `service-pulumi review` on preview JSON shaped as Pulumi 3.259 to 3.274 write it (test/e2e/review-command.test.ts
 * runs it on the real engine's): each change and its delivery impact, line by line; the quota; what is
 * said when the JSON has no unchanged resources; one line per bad input; and never a secret.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hookResource, previewOf, useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";
import { HOOKS_TOKEN, OTHER_TOKEN, HOST as STAGE_HOST } from "../../helpers/fixtures";
import {
  create,
  dir,
  HOOK,
  hookState,
  PLANTED,
  previewFile,
  remove,
  replace,
  same,
  stackStep,
  urnOf,
  uuid,
  WEBHOOK_TYPE,
} from "../../helpers/preview-steps";
import { scripted } from "../../helpers/scripted-server";
import { type Stage, startStage, useStage } from "../../helpers/stage";

const HOST = STAGE_HOST;
/** The review's line for a replace that creates first, with the same secret and with a new one. */
const SAME_SECRET =
  "  - Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment: the receiver may see a delivery twice (deduplicate by update_counter).";
const NEW_SECRET =
  "  - Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment, each signed with its own secret: the receiver needs both secrets and its update_counter guard.";
const NOT_A_ROTATION =
  "  - Not a rotation: the secret stays the same, so the receiver needs no other secret.";

describe("service-pulumi review", () => {
  it("lists each change with its delivery impact, and the quota after it", async () => {
    const domainType = "service:index:Domain$pulumi-nodejs:dynamic/service:DomainVerification";
    const domainState = (name: string, uuidN?: number) => ({
      urn: urnOf("dev", domainType, "hooks-verification"),
      type: "pulumi-nodejs:dynamic/service:DomainVerification",
      parent: urnOf("dev", "service:index:Domain", "hooks"),
      inputs: { domainName: name, registerToken: PLANTED },
      outputs: uuidN ? { domainUuid: uuid(uuidN), domainName: name, organization: "acme" } : {},
    });
    const file = previewFile("dev.json", [
      stackStep("dev"),
      replace("dev", "orders", { uuid: uuid(1) }, { channel: "orders-v2" }, ["channel"]),
      replace("dev", "rotated", { uuid: uuid(2) }, {}, ["secretKey"]),
      replace(
        "dev",
        "narrowed",
        { uuid: uuid(3) },
        {
          filters: [
            { key: "activity.name", value: "authentication" },
            { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
            { key: "owner.user.username", value: "acme-bob" },
          ],
        },
        ["filters"],
      ),
      replace("dev", "careful", { uuid: uuid(4) }, { channel: "careful-v2" }, ["channel"], true),
      create("dev", "added", { filters: [{ key: "activity.name", value: "fingerprint" }] }),
      remove("dev", "gone", { uuid: uuid(5) }),
      same("dev", "kept", { uuid: uuid(6) }),
      {
        op: "replace",
        urn: domainState("x").urn,
        oldState: { ...domainState("hooks.acme.test", 7), delete: true },
        newState: domainState("other.acme.test"),
        replaceReasons: ["domainName"],
      },
    ]);
    const run = await runCli(["review", file]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "# Webhook and Domain review",
      "",
      "## Organization `acme`",
      "",
      "**Quota:** 6 of 10 webhooks after the change (4 left); up to 10 of 10 while the update runs. Counted from the stacks in this report; webhooks they do not hold are not counted (add --live to list them).",
      "",
      "### `infra/dev`",
      "",
      "- **Replace** Webhook `careful`, forced by `channel` (delete-before-replace)",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`careful\`.`,
      `  - \`${HOOK}\` starts receiving \`authentication\` records on channel \`careful-v2\`.`,
      `  - Gap: the old webhook is deleted first (deleteBeforeReplace), so \`${HOOK}\` receives no \`authentication\` records on channel \`careful\` until the new webhook is created.`,
      NOT_A_ROTATION,
      "- **Replace** Domain `hooks`, forced by `domainName` (create-before-delete)",
      "  - `other.acme.test` is registered before `hooks.acme.test` is deactivated; webhooks on `https://hooks.acme.test/` must move first (the service refuses to deactivate a domain an active webhook targets).",
      "- **Replace** Webhook `narrowed`, forced by `filters` (create-before-delete)",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`narrowed\`.`,
      `  - \`${HOOK}\` starts receiving \`authentication\` records of form factors \`lightbox\` or \`microscopic\` and user \`acme-bob\` on channel \`narrowed\`.`,
      SAME_SECRET,
      NOT_A_ROTATION,
      "- **Replace** Webhook `orders`, forced by `channel` (create-before-delete)",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`orders\`.`,
      `  - \`${HOOK}\` starts receiving \`authentication\` records on channel \`orders-v2\`.`,
      SAME_SECRET,
      NOT_A_ROTATION,
      "- **Replace** Webhook `rotated`, forced by `secretKey` (create-before-delete)",
      `  - \`${HOOK}\` keeps receiving \`authentication\` records on channel \`rotated\`, signed with the new secret.`,
      NEW_SECRET,
      `  - Rotation step one: before the merge, the receiver at \`${HOOK}\` must hold the secret webhook \`rotated\` signs with now and its new one (no SecretRotation names them: see docs/receiver.md). Drop the old secret in a later update (step two), once the old webhook's retries have stopped.`,
      "- **Delete** Webhook `gone`",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`gone\`.`,
      "- **Create** Webhook `added`",
      `  - \`${HOOK}\` starts receiving \`fingerprint\` records on channel \`added\`.`,
      "- Unchanged: 1 Webhook, 0 Domains.",
      "",
    ]);
    expect(run.stdout).not.toContain(PLANTED);
  });

  it("asks the receiver for both secrets only when a replace changes the secret", async () => {
    const moved = `https://${HOST}/service/moved`;
    const steps = [
      stackStep("dev"),
      replace("dev", "moved", { uuid: uuid(1) }, { endpoint: moved }, ["endpoint"]),
      replace("dev", "rekeyed", { uuid: uuid(2) }, { endpoint: moved }, ["endpoint", "secretKey"]),
    ];
    const run = await runCli(["review", previewFile("secrets.json", steps)]);
    expect(run.code).toBe(0);
    const impact = (name: string) => {
      const lines = run.stdout.split("\n");
      const at = lines.findIndex((line) => line.includes(`Webhook \`${name}\``));
      return lines.slice(at + 1, at + 4);
    };
    expect(impact("moved")).toEqual([
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`moved\`.`,
      `  - \`${moved}\` starts receiving \`authentication\` records on channel \`moved\`.`,
      SAME_SECRET,
    ]);
    expect(impact("rekeyed")).toEqual([
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`rekeyed\`.`,
      `  - \`${moved}\` starts receiving \`authentication\` records on channel \`rekeyed\`.`,
      NEW_SECRET,
    ]);
  });

  it("says so when the preview has no unchanged resources, rather than guess the quota", async () => {
    const steps = [stackStep("dev"), create("dev", "added", {}), same("dev", "kept", { uuid: uuid(1) })];
    const run = await runCli(["review", previewFile("no-sames.json", steps, { sames: false })]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "**Quota:** not known: the preview of `infra/dev` was made without `--show-sames`, so its unchanged webhooks are missing: run `pulumi preview --json --show-sames`, or add `--live` to count the organization's webhooks.",
    );
    expect(run.stdout).toContain("- Unchanged: not known (the preview was made without `--show-sames`).");
    const json = JSON.parse(
      (await runCli(["review", "--format", "json", join(dir, "no-sames.json")])).stdout,
    );
    expect(json.organizations[0].quota).toMatchObject({ after: null, peak: null });
    expect(json.organizations[0].stacks[0].unchanged).toBeNull();
  });

  it("counts two stacks of one organization together, and a replace at 10 of 10 by its order", async () => {
    const hooks = (stack: string, n: number, from: number) =>
      Array.from({ length: n }, (_, i) => same(stack, `hook-${i}`, { uuid: uuid(from + i) }));
    const dev = previewFile("ten-dev.json", [
      stackStep("dev"),
      ...hooks("dev", 5, 100),
      replace("dev", "moved", { uuid: uuid(1) }, { channel: "moved-v2" }, ["channel"], true),
    ]);
    const prod = previewFile("ten-prod.json", [stackStep("prod"), ...hooks("prod", 4, 200)]);
    const careful = await runCli(["review", dev, prod]);
    expect(careful.stdout).toContain(
      "**Quota:** 10 of 10 webhooks after the change (0 left); up to 10 of 10 while the update runs.",
    );
    expect(careful.stdout).toMatch(/### `infra\/dev`[\s\S]*### `infra\/prod`/);
    expect(careful.stdout.match(/## Organization/g)).toHaveLength(1);

    const eager = previewFile("ten-eager.json", [
      stackStep("dev"),
      ...hooks("dev", 5, 100),
      replace("dev", "moved", { uuid: uuid(1) }, { channel: "moved-v2" }, ["channel"]),
    ]);
    const overlapping = await runCli(["review", eager, prod]);
    expect(overlapping.stdout).toContain(
      "up to 11 of 10 while the update runs — more than 10: a create would be refused.",
    );
  });

  it("reports a stack whose resources reach two organizations under each, with each one's quota", async () => {
    const theirs = same("dev", "theirs", { uuid: uuid(2) });
    for (const state of [theirs.oldState, theirs.newState] as {
      outputs: { owner: { organization: string } };
    }[]) {
      state.outputs.owner = { ...state.outputs.owner, organization: "globex" };
    }
    const file = previewFile("two-organizations.json", [
      stackStep("dev"),
      same("dev", "ours", { uuid: uuid(1) }),
      theirs,
      create("dev", "added", {}),
    ]);
    const run = await runCli(["review", file]);
    const sections = run.stdout.split("## Organization ").slice(1);
    expect(sections.map((section) => section.split("\n")[0])).toEqual(["`acme`", "`globex`"]);
    expect(sections[0]).toContain("**Quota:** 2 of 10 webhooks after the change (8 left)");
    expect(sections[0]).toContain("- **Create** Webhook `added`");
    expect(sections[1]).toContain("**Quota:** 1 of 10 webhooks after the change (9 left)");
    expect(sections[1]).toContain("- Unchanged: 1 Webhook, 0 Domains.");
  });

  it("counts an imported webhook as unchanged: it was active already", async () => {
    const imported = { ...same("dev", "adopted", { uuid: uuid(1) }), op: "import" };
    const run = await runCli(["review", previewFile("import.json", [stackStep("dev"), imported])]);
    expect(run.stdout).toContain("**Quota:** 1 of 10 webhooks after the change (9 left); up to 1 of 10");
    expect(run.stdout).toContain("- Unchanged: 1 Webhook, 0 Domains.");
  });

  it("reads the provider plugin's service:index:Webhook alike", async () => {
    const plugin = "service:index:Webhook";
    const file = previewFile("plugin.json", [
      stackStep("dev"),
      {
        op: "create",
        urn: urnOf("dev", plugin, "added"),
        newState: hookState("dev", "added", {}, {}, plugin),
      },
    ]);
    const run = await runCli(["review", file]);
    expect(run.stdout).toContain("- **Create** Webhook `added`");
  });

  it("names the file and the problem in one line, exit 2, for input it cannot read", async () => {
    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "Previewing update (dev):\n");
    const state = join(dir, "state.json");
    writeFileSync(state, JSON.stringify({ version: 3, deployment: { resources: [] } }));
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ hello: "world" }));
    const twice = previewFile("twice.json", [stackStep("dev")]);
    // What the engine writes when the preview fails: the steps up to the failure, and the error.
    const failed = join(dir, "failed.json");
    writeFileSync(
      failed,
      JSON.stringify({
        steps: [stackStep("dev")],
        diagnostics: [
          {
            urn: urnOf("dev", WEBHOOK_TYPE, "hook-3"),
            message:
              "error: pulumi-nodejs:dynamic/service:Webhook resource 'hook-3' has a problem: it needs an 11th slot\n",
            severity: "error",
          },
        ],
        changeSummary: { same: 1 },
      }),
    );
    const cases: [string[], RegExp][] = [
      [
        ["review", notJson],
        /^.*not\.json: not JSON \(.*\): give the output of `pulumi preview --json --show-sames`/,
      ],
      [["review", state], /state\.json: a stack's state \(`pulumi stack export`\), not a preview's JSON/],
      [["review", other], /other\.json: not the JSON of a Pulumi preview \(steps: .*\): give the output/],
      [
        ["review", join(dir, "missing.json")],
        /missing\.json: cannot be read \(ENOENT\): give a file written by/,
      ],
      [["review", twice, twice], /twice\.json: a second preview of infra\/dev/],
      [
        ["review", failed],
        /^.*failed\.json: the preview failed \(pulumi-nodejs:dynamic\/service:Webhook resource 'hook-3' has a problem: it needs an 11th slot\): fix what it says, then preview again\.\n$/,
      ],
      [["review", "--format", "html", twice], /--format html is not a format: give markdown or json/],
      [
        ["review", "--bogus"],
        /^service-pulumi review: Unknown option '--bogus'\. Run `service-pulumi review --help`/,
      ],
      [["nothing"], /^service-pulumi: nothing is not a command/],
    ];
    for (const [argv, message] of cases) {
      const run = await runCli(argv);
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("reads a preview from stdin, and prints its help", async () => {
    const text = JSON.stringify({
      steps: [stackStep("dev"), create("dev", "added", {})],
      changeSummary: { same: 1, create: 1 },
    });
    const run = await runCli(["review"], { stdin: text });
    expect(run.stdout).toContain("### `infra/dev`");
    const help = await runCli(["review", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: service-pulumi review/);
  });
});

describe("service-pulumi review --live", () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await startStage();
    await stage.registerHost();
  });
  afterAll(() => stage?.close());

  async function hookOf(token: string, host: string): Promise<string> {
    const created = await stage.api("POST", "/v2/webhooks", {
      token,
      body: {
        endpoint: { type: "url", value: `https://${host}/service/events` },
        secret_key: PLANTED,
        channel: "by-hand",
        filters: [{ key: "activity.name", value: "authentication" }],
      },
    });
    return created.json.webhook_uuid as string;
  }

  it("reads the token from the environment when the stack is not named with --stacks, and says so", async () => {
    const byHand = await hookOf(HOOKS_TOKEN, HOST);
    const file = previewFile("live.json", [stackStep("dev"), same("dev", "kept", { uuid: uuid(1) })]);
    const missing = await runCli(["review", "--live", file], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^infra\/dev: its token is in its stack config, which review reads only for a stack you name: give --stacks dev in project infra's folder \(--cwd\), --token, or SERVICE_API_TOKEN\.\n$/,
    );

    vi.stubEnv("SERVICE_API_TOKEN", HOOKS_TOKEN);
    vi.stubEnv("SERVICE_BASE_URL", stage.sandbox.url);
    const mark = stage.mark();
    const live = await runCli(["review", "--live", file], { cwd: dir });
    expect(live.code).toBe(0);
    expect(live.stderr).toMatch(
      /^infra\/dev: its service:token is read only for a stack you name; using SERVICE_API_TOKEN instead \(give --stacks dev in project infra's folder \(--cwd\) to use the stack's\)\.\n$/,
    );
    expect(stage.callsSince(mark)).toBe(1);
    expect(live.stdout).toContain(
      "**Quota:** 1 of 10 webhooks after the change (9 left); up to 1 of 10 while the update runs.",
    );
    expect(live.stdout).toContain(
      `- \`${byHand}\`: \`${HOOK}\`, \`authentication\` records on channel \`by-hand\``,
    );
    expect(live.stdout + live.stderr).not.toContain(HOOKS_TOKEN);
  });

  it("refuses a token of another organization than the stack's webhooks", async () => {
    const globex = "hooks.globex.test";
    await stage.registerHost(globex, OTHER_TOKEN);
    await hookOf(OTHER_TOKEN, globex);
    const file = previewFile("other.json", [stackStep("dev"), same("dev", "kept", { uuid: uuid(1) })]);
    const run = await runCli(
      ["review", "--live", "--token", OTHER_TOKEN, "--base-url", stage.sandbox.url, file],
      { cwd: dir },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "infra/dev: its webhooks belong to organization acme, but its token reaches organization globex: give acme's token (--token, the service:token of a stack named with --stacks, or SERVICE_API_TOKEN).\n",
    );
  });
});

/**
 * Review --live on a pull request's preview, which an attacker wrote: no token goes where the preview
 * points, and no stack that only the preview names has its config read. Each test counts what reached a
 * capture server and the sandbox.
 */
describe("review --live on a hostile preview", () => {
  const stages = useStage();
  let stage: Stage;
  beforeAll(() => {
    stage = stages.current;
  });
  const createHook = (channel: string) => stage.webhookMadeByHand(channel);
  const inputs = useCliFolder("cli-review-hostile-");

  it("sends no request when the preview names another base URL, whichever way the token is given", async () => {
    const capture = await scripted(() => ({ items: [], next_cursor: null }));
    const kept = await createHook("kept");
    const { folder, pulumi } = inputs.projectFolder("review-project");
    pulumi.config("dev", {
      "service:token": { value: HOOKS_TOKEN, secret: true },
      "service:baseUrl": { value: stage.sandbox.url },
    });
    const file = inputs.writeJson(
      "hostile-base-url.json",
      previewOf([hookResource("dev", "kept", kept)], {
        "service:baseUrl": `${capture.url}/`,
        "service:token": "[secret]",
      }),
    );
    const ways: [string, string[], Record<string, string>][] = [
      ["the environment", [], { SERVICE_API_TOKEN: HOOKS_TOKEN, SERVICE_BASE_URL: stage.sandbox.url }],
      ["--token", ["--token", HOOKS_TOKEN, "--base-url", stage.sandbox.url], {}],
      ["the named stack's config", ["--stacks", "dev"], {}],
    ];
    for (const [way, flags, env] of ways) {
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
      const mark = stage.mark();
      const run = await runCli(["review", "--live", ...flags, join(inputs.dir, file)], { cwd: folder });
      expect(run.code, way).toBe(2);
      // From the environment, a line first says that the stack's own token is not read.
      expect(run.stderr.split("\n").at(-2), way).toBe(
        `${join(inputs.dir, file)}: the preview of infra/dev sets service:baseUrl to ${capture.url}/, but review sends a token only to the base URL configured here, ${stage.sandbox.url} (${flags.length ? (flags[0] === "--token" ? "--base-url" : "the stack's service:baseUrl") : "SERVICE_BASE_URL"}), and nothing was sent: if the stack does move there, review the change without --live, or give --base-url yourself.`,
      );
      expect(capture.seen, way).toHaveLength(0);
      expect(stage.callsSince(mark), way).toBe(0);
      for (const name of Object.keys(env)) vi.stubEnv(name, undefined);
    }

    // Where it names the configured URL, the one listing goes there.
    const same = inputs.writeJson(
      "same-base-url.json",
      previewOf([hookResource("dev", "kept", kept)], { "service:baseUrl": `${stage.sandbox.url}/` }),
    );
    const mark = stage.mark();
    const run = await runCli(["review", "--live", "--stacks", "dev", join(inputs.dir, same)], {
      cwd: folder,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(1);
    expect(capture.seen).toHaveLength(0);
  });

  it("reads the config of a stack the operator named, never of one only the preview's URNs name", async () => {
    const kept = await createHook("kept");
    const { folder, pulumi } = inputs.projectFolder("urn-project");
    for (const stack of ["dev", "prod"]) {
      pulumi.config(stack, {
        "service:token": { value: HOOKS_TOKEN, secret: true },
        "service:baseUrl": { value: stage.sandbox.url },
      });
    }
    const prod = inputs.writeJson(
      "urn-prod.json",
      previewOf([hookResource("prod", "kept", kept)], { "service:token": "[secret]" }, "prod"),
    );

    const refused = await runCli(["review", "--live", "--stacks", "dev", join(inputs.dir, prod)], {
      cwd: folder,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "infra/prod: its token is in its stack config, which review reads only for a stack you name: give --stacks prod in project infra's folder (--cwd), --token, or SERVICE_API_TOKEN.\n",
    );
    expect(pulumi.calls()).toEqual([
      ["config", "--show-secrets", "--json", "--stack", "dev", "--non-interactive"],
    ]);

    const named = await runCli(["review", "--live", "--stack", "prod", join(inputs.dir, prod)], {
      cwd: folder,
    });
    expect(named.stderr).toBe("");
    expect(named.code).toBe(0);
    expect(pulumi.calls().at(-1)).toEqual([
      "config",
      "--show-secrets",
      "--json",
      "--stack",
      "prod",
      "--non-interactive",
    ]);
  });

  it("knows a webhook whose endpoint the program made secret by its id, and never prints that endpoint", async () => {
    const hidden = await createHook("hidden");
    const file = inputs.writeJson(
      "secret-endpoint.json",
      previewOf([hookResource("dev", "hidden", hidden, { endpoint: "[secret]" })], {}),
    );
    const run = await runCli(
      ["review", "--live", "--token", HOOKS_TOKEN, "--base-url", stage.sandbox.url, file],
      { cwd: inputs.dir },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("none of these stacks knows of");
    expect(run.stdout).not.toContain(HOOK);
  });
});
