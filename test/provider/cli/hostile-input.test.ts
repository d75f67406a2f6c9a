/**
 * `service-pulumi review` and `audit` on input an attacker wrote: a pull request's preview, a state file,
 * a listing. No token goes where the input points, no stack the input names has its secrets read, nothing
 * managed is deactivated when the picture is not whole, and what is printed carries no control character
 * and no secret. Each test counts what reached a capture server and what the sandbox deactivated.
 */
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  MAX_INPUT_BYTES,
  MAX_INPUT_CONTAINERS,
  MAX_INPUT_ITEMS,
  readStream,
} from "../../../provider/cli/json-input";
import { webhook as webhookDeclaration } from "../../../provider/registry";
import { runCli } from "../../helpers/cli-io";
import { fakePulumi } from "../../helpers/fake-pulumi";
import { HOOKS_TOKEN, HOST } from "../../helpers/fixtures";
import { scripted } from "../../helpers/scripted-server";
import { type Stage, useStage } from "../../helpers/stage";

const dir = mkdtempSync(join(tmpdir(), "cli-hostile-"));
const HOOK = `https://${HOST}/service/events`;
const TYPE = webhookDeclaration.token;
/** What Pulumi writes a secret as in a stack export. */
const envelope = (ciphertext: string) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext,
});

// The stage of every test, with HOST registered; its faults and webhooks are cleared after each test.
const stages = useStage();
let stage: Stage;
beforeAll(() => {
  stage = stages.current;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
});

const createHook = (channel: string) => stage.webhookMadeByHand(channel);

const urnOf = (stack: string, name: string, type = TYPE, project = "infra") =>
  `urn:pulumi:${stack}::${project}::${type}::${name}`;

/** A Webhook resource as a state or a preview's step holds it; `outputs` replace the default ones. */
const hookResource = (stack: string, name: string, uuid: string, outputs: Record<string, unknown> = {}) => ({
  urn: urnOf(stack, name),
  type: TYPE,
  id: uuid,
  custom: true,
  inputs: { endpoint: HOOK, channel: name },
  outputs: {
    webhookUuid: uuid,
    endpoint: HOOK,
    channel: name,
    filters: [{ key: "activity.name", value: "authentication" }],
    owner: { organization: "acme", username: "acme-alice" },
    ...outputs,
  },
});

const stackResource = (stack: string, project = "infra") => ({
  urn: `urn:pulumi:${stack}::${project}::pulumi:pulumi:Stack::${project}-${stack}`,
  type: "pulumi:pulumi:Stack",
});

/** Writes `json` to `name` in the test's folder, and gives `name`, as the commands (run there) name it. */
function writeJson(name: string, json: unknown): string {
  writeFileSync(join(dir, name), JSON.stringify(json));
  return name;
}

/**
 * A Pulumi project folder of project `infra`, with a fake Pulumi CLI on PATH whose calls are logged: the
 * stacks' config and states are what the test writes through `pulumi`.
 */
function projectFolder(name: string) {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "Pulumi.yaml"), "name: infra\nruntime: nodejs\n");
  const pulumi = fakePulumi(join(dir, `${name}-pulumi`));
  vi.stubEnv("PATH", pulumi.env.PATH);
  vi.stubEnv("FAKE_PULUMI_DIR", pulumi.env.FAKE_PULUMI_DIR);
  return { folder, pulumi };
}

const stateOf = (resources: unknown[], extra: Record<string, unknown> = {}) => ({
  version: 3,
  deployment: { manifest: {}, resources, ...extra },
});

/** A preview of `stack` whose steps leave `resources` as they are, with the config the program's stack shows. */
const previewOf = (
  resources: ReturnType<typeof hookResource>[],
  config: Record<string, unknown>,
  stack = "dev",
) => ({
  config,
  steps: [
    { op: "same", urn: stackResource(stack).urn },
    ...resources.map((r) => ({ op: "same", urn: r.urn, oldState: r, newState: r })),
  ],
  changeSummary: { same: resources.length + 1 },
});

describe("review --live on a hostile preview", () => {
  it("sends no request when the preview names another base URL, whichever way the token is given", async () => {
    const capture = await scripted(() => ({ items: [], next_cursor: null }));
    const kept = await createHook("kept");
    const { folder, pulumi } = projectFolder("review-project");
    pulumi.config("dev", {
      "service:token": { value: HOOKS_TOKEN, secret: true },
      "service:baseUrl": { value: stage.sandbox.url },
    });
    const file = writeJson(
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
      const run = await runCli(["review", "--live", ...flags, join(dir, file)], { cwd: folder });
      expect(run.code, way).toBe(2);
      // From the environment, a line first says that the stack's own token is not read.
      expect(run.stderr.split("\n").at(-2), way).toBe(
        `${join(dir, file)}: the preview of infra/dev sets service:baseUrl to ${capture.url}/, but review sends a token only to the base URL configured here, ${stage.sandbox.url} (${flags.length ? (flags[0] === "--token" ? "--base-url" : "the stack's service:baseUrl") : "SERVICE_BASE_URL"}), and nothing was sent: if the stack does move there, review the change without --live, or give --base-url yourself.`,
      );
      expect(capture.seen, way).toHaveLength(0);
      expect(stage.callsSince(mark), way).toBe(0);
      for (const name of Object.keys(env)) vi.stubEnv(name, undefined);
    }

    // Where it names the configured URL, the one listing goes there.
    const same = writeJson(
      "same-base-url.json",
      previewOf([hookResource("dev", "kept", kept)], { "service:baseUrl": `${stage.sandbox.url}/` }),
    );
    const mark = stage.mark();
    const run = await runCli(["review", "--live", "--stacks", "dev", join(dir, same)], { cwd: folder });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(1);
    expect(capture.seen).toHaveLength(0);
  });

  it("reads the config of a stack the operator named, never of one only the preview's URNs name", async () => {
    const kept = await createHook("kept");
    const { folder, pulumi } = projectFolder("urn-project");
    for (const stack of ["dev", "prod"]) {
      pulumi.config(stack, {
        "service:token": { value: HOOKS_TOKEN, secret: true },
        "service:baseUrl": { value: stage.sandbox.url },
      });
    }
    const prod = writeJson(
      "urn-prod.json",
      previewOf([hookResource("prod", "kept", kept)], { "service:token": "[secret]" }, "prod"),
    );

    const refused = await runCli(["review", "--live", "--stacks", "dev", join(dir, prod)], { cwd: folder });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "infra/prod: its token is in its stack config, which review reads only for a stack you name: give --stacks prod in project infra's folder (--cwd), --token, or SERVICE_API_TOKEN.\n",
    );
    expect(pulumi.calls()).toEqual([
      ["config", "--show-secrets", "--json", "--stack", "dev", "--non-interactive"],
    ]);

    const named = await runCli(["review", "--live", "--stack", "prod", join(dir, prod)], { cwd: folder });
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
    const file = writeJson(
      "secret-endpoint.json",
      previewOf([hookResource("dev", "hidden", hidden, { endpoint: "[secret]" })], {}),
    );
    const run = await runCli(
      ["review", "--live", "--token", HOOKS_TOKEN, "--base-url", stage.sandbox.url, file],
      { cwd: dir },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("none of these stacks knows of");
    expect(run.stdout).not.toContain(HOOK);
  });
});

describe("audit --deactivate-orphans on a picture that is not whole", () => {
  const audit = (args: string[]) =>
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
        cwd: dir,
      },
    );

  it("keeps a managed webhook whose endpoint the state holds as a secret", async () => {
    const hidden = await createHook("hidden");
    const orphan = await createHook("by-hand");
    const state = writeJson(
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
    const run = await audit(["--state", state]);
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
      const run = await audit(["--state", writeJson(`${name}.json`, state)]);
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(message);
      expect(run.stderr.trimEnd().split("\n"), name).toHaveLength(1);
      // The report the refusal asks the reader to look at is printed all the same.
      expect(run.stdout, name).toMatch(/^# Audit\n[\s\S]*Exit code 2\.\n$/);
      expect(await stage.active(), name).toHaveLength(2);
    }
    // An empty export of a named stack: the state of a stack with nothing in it.
    const { folder, pulumi } = projectFolder("empty-project");
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
    const state = writeJson(
      "named.json",
      stateOf([stackResource("dev"), hookResource("dev", "managed", managed)]),
    );

    const capped = await audit(["--state", state, "--max-deactivations", "1"]);
    expect(capped.code).toBe(2);
    expect(capped.stderr).toBe(
      "service-pulumi audit --deactivate-orphans: 2 orphans would be deactivated, more than --max-deactivations 1: read the report, then name the ones to deactivate with --orphan <uuid>; nothing was deactivated.\n",
    );
    const notOrphan = await audit(["--state", state, "--orphan", managed]);
    expect(notOrphan.code).toBe(2);
    expect(notOrphan.stderr).toBe(
      `service-pulumi audit --deactivate-orphans: --orphan ${managed} is managed, not orphaned: give only uuids the report lists as orphaned; nothing was deactivated.\n`,
    );
    expect((await stage.active()).sort()).toEqual([managed, first, second].sort());

    const named = await audit(["--state", state, "--orphan", first, "--max-deactivations", "1"]);
    expect(named.stderr).toBe(
      `To deactivate: webhook ${first} of organization acme: ${HOOK}, channel first.\nDeactivated webhook ${first} of organization acme: ${HOOK}, channel first.\n`,
    );
    expect((await stage.active()).sort()).toEqual([managed, second].sort());
    // The orphan left is still a finding.
    expect(named.code).toBe(1);
  });

  it("refuses when the listing cannot be matched one to one with the states", async () => {
    const owner = { organization: { name: "acme" }, user: { username: "acme-alice" } };
    const listed = (uuid: string, organization = owner) => ({
      webhook_uuid: uuid,
      endpoint: { type: "url", value: HOOK },
      channel: "orders",
      filters: [{ key: "activity.name", value: "authentication" }],
      webhook_owner: organization,
    });
    const answers: Record<string, unknown[]> = {
      twice: [listed("u-managed"), listed("u-orphan"), listed("u-orphan")],
      foreign: [listed("u-managed"), listed("u-orphan", { ...owner, organization: { name: "globex" } })],
    };
    for (const [name, items] of Object.entries(answers)) {
      const api = await scripted((request) =>
        request.path.includes("/search/")
          ? { items: request.path.includes("webhooks") ? items : [], next_cursor: null }
          : { status: "ok" },
      );
      const state = writeJson(
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
        { cwd: dir },
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

describe("secrets and characters on stderr", () => {
  it("hides a token a stack's config holds when `pulumi stack export` repeats it on stderr", async () => {
    const { folder, pulumi } = projectFolder("echo-project");
    const stackToken = "acme-stack-config-token-5c1e0a";
    pulumi.config("dev", {
      "service:token": { value: stackToken, secret: true },
      "service:baseUrl": { value: stage.sandbox.url },
    });
    pulumi.stderr("dev", "state", `error: could not decrypt with token ${stackToken}\n`);
    const run = await runCli(["audit", "--stacks", "dev"], { cwd: folder });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("could not decrypt with token [REDACTED]");
    expect(run.stderr).not.toContain(stackToken);
    // The config was read, registering its secrets, before the state was exported.
    expect(pulumi.calls().map((c) => c[0])).toEqual(["config", "stack"]);

    // A token given on the command line or in the environment is hidden before the first child runs.
    const flagToken = "acme-flag-token-9b7d2f4e";
    const envToken = "acme-env-token-3a8c6e1d";
    vi.stubEnv("SERVICE_API_TOKEN", envToken);
    pulumi.stderr("prod", "config", `error: ${flagToken} and ${envToken} are not passphrases\n`);
    const flagged = await runCli(["audit", "--token", flagToken, "--stacks", "prod"], { cwd: folder });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(": [REDACTED] and [REDACTED] are not passphrases: ");
  });

  it("hides a token inside a value before the value is cut to its shown length", async () => {
    vi.stubEnv("SERVICE_API_TOKEN", HOOKS_TOKEN);
    // The token starts 10 characters before the cut at 200: cut first, its start would show.
    const endpoint = `https://${HOST}/${"a".repeat(190 - HOST.length - 9)}${HOOKS_TOKEN}`;
    const hook = hookResource("dev", "long", "u-long");
    const created = { ...hook, inputs: { ...hook.inputs, endpoint }, outputs: { ...hook.outputs, endpoint } };
    const file = writeJson("long-endpoint.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        { op: "create", urn: created.urn, newState: created },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[REDACTED]");
    expect(run.stdout).not.toContain(HOOKS_TOKEN.slice(0, 8));
  });

  it("writes a diagnostic's CR, newline and bidirectional characters as escapes, on one line", async () => {
    const file = writeJson("diagnostic.json", {
      steps: [{ op: "same", urn: stackResource("dev").urn }],
      diagnostics: [{ severity: "error", message: "error: bad\rfake: ok\u202Egnp.exe\u2066x" }],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "diagnostic.json: the preview failed (bad\\u000dfake: ok\\u202egnp.exe\\u2066x): fix what it says, then preview again.\n",
    );
  });
});

describe("found by an attacker's probe (regressions)", () => {
  const owner = { organization: { name: "acme" }, user: { username: "acme-alice" } };
  const listed = (uuid: string) => ({
    webhook_uuid: uuid,
    endpoint: { type: "url", value: HOOK },
    channel: "orders",
    filters: [{ key: "activity.name", value: "authentication" }],
    webhook_owner: owner,
  });
  /** A fake API whose webhook search answers `page(request index)`, and that records every request. */
  const fakeApi = (page: (index: number) => { items: unknown[]; next_cursor: string | null }) =>
    scripted((request, index) =>
      request.path.includes("/search/webhooks")
        ? page(index)
        : request.path.includes("/search/")
          ? { items: [], next_cursor: null }
          : { status: "ok" },
    );
  const auditAt = (url: string, state: string, more: string[] = []) =>
    runCli(["audit", "--token", HOOKS_TOKEN, "--base-url", url, "--state", state, ...more], { cwd: dir });

  it("takes a settled webhook's uuid from its state, not from its create's placeholder id", async () => {
    const settled = await createHook("settled");
    const orphan = await createHook("by-hand");
    const placeholder = "pending-9b2e0f7c-4a51-4d0e-9f43-0c8d1b7a2e11";
    const state = writeJson(
      "settled.json",
      stateOf([stackResource("dev"), { ...hookResource("dev", "settled", settled), id: placeholder }]),
    );
    const run = await auditAt(stage.sandbox.url, state, ["--deactivate-orphans", "--yes"]);
    expect(run.stderr).toBe(
      `To deactivate: webhook ${orphan} of organization acme: ${HOOK}, channel by-hand.\nDeactivated webhook ${orphan} of organization acme: ${HOOK}, channel by-hand.\n`,
    );
    expect(await stage.active()).toEqual([settled]);
    expect(run.stdout).not.toContain(placeholder);

    // With its uuid secret, a placeholder id stands for nothing: the state cannot be read whole.
    const hidden = writeJson(
      "settled-secret.json",
      stateOf([
        stackResource("dev"),
        { ...hookResource("dev", "settled", settled, { webhookUuid: envelope("DDDD") }), id: placeholder },
      ]),
    );
    await createHook("by-hand-2");
    const refused = await auditAt(stage.sandbox.url, hidden, ["--deactivate-orphans", "--yes"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /could not be read \(its uuid is secret and its id is a create's placeholder\)/,
    );
    // An id and a recorded uuid that disagree leave the uuid unknown too.
    const disagree = writeJson(
      "disagree.json",
      stateOf([stackResource("dev"), { ...hookResource("dev", "settled", settled), id: orphan }]),
    );
    const both = await auditAt(stage.sandbox.url, disagree, ["--deactivate-orphans", "--yes"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/could not be read \(its webhookUuid cannot be read\)/);
    expect((await stage.active()).length).toBe(2);
  });

  it("refuses a Webhook whose URN it cannot read, rather than leave it out", async () => {
    const api = await fakeApi(() => ({ items: [listed("u-kept"), listed("u-other")], next_cursor: null }));
    const state = writeJson(
      "bad-urn.json",
      stateOf([
        stackResource("dev"),
        hookResource("dev", "kept", "u-kept"),
        { ...hookResource("dev", "other", "u-other"), urn: "not-a-urn" },
      ]),
    );
    const run = await auditAt(api.url, state, ["--deactivate-orphans", "--yes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not-a-urn of infra\/dev could not be read \(its URN is not a Pulumi URN\)/);
    expect(api.seen.filter((r) => r.path.includes("deactivate"))).toHaveLength(0);
  });

  it("refuses a listing whose cursor comes back, or whose page is larger than asked, after one pass", async () => {
    const state = writeJson(
      "cursor.json",
      stateOf([stackResource("dev"), hookResource("dev", "kept", "u-kept")]),
    );
    const looping = await fakeApi(() => ({ items: [listed("u-kept")], next_cursor: "c1" }));
    const loop = await auditAt(looping.url, state, ["--json"]);
    expect(loop.code).toBe(2);
    expect(loop.stderr).toBe(
      'infra/dev: listing the organization\'s webhooks failed: the cursor "c1" came back a second time, so it cannot be taken as the whole listing: run again, and report it if it persists.\n',
    );
    expect(looping.seen).toHaveLength(2);
    const large = await fakeApi(() => ({
      items: Array.from({ length: 21 }, (_, i) => listed(`u-${i}`)),
      next_cursor: null,
    }));
    const big = await auditAt(large.url, state);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(
      /a page held 21 items, more than the 20 asked for, so it cannot be taken as the whole listing/,
    );
  });

  it("writes a newline from the input as an escape, so that no line of stderr is forged", async () => {
    const file = writeJson("forged.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        { op: "same", urn: urnOf("dev", "kept", TYPE, "infra\n##[error]forged") },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")).toHaveLength(2);
    expect(run.stderr).toContain("infra\\u000a##[error]forged/dev");
  });

  it("hides a token a named stack sets in plain text, before its state is exported", async () => {
    const { folder, pulumi } = projectFolder("plain-token-project");
    const plain = "acme-plain-config-token-2d9f4b";
    pulumi.config("dev", { "service:token": { value: plain, secret: false } });
    pulumi.stderr("dev", "state", `error: token ${plain} was refused\n`);
    const run = await runCli(["audit", "--stacks", "dev"], { cwd: folder });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("token [REDACTED] was refused");
    expect(run.stderr).not.toContain(plain);
  });

  it("says a secret channel or secret filters are secret, never their defaults, and never calls them unchanged", async () => {
    const secretly = (name: string, filters: unknown) => ({
      ...hookResource("dev", name, `u-${name}`, { channel: "[secret]", filters }),
      inputs: { endpoint: HOOK, channel: "[secret]", filters },
    });
    const before = secretly("hush", "[secret]");
    const after = { ...secretly("hush", "[secret]"), id: undefined };
    const file = writeJson("secret-channel.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        {
          op: "replace",
          urn: before.urn,
          oldState: { ...before, delete: true },
          newState: after,
          replaceReasons: ["filters"],
        },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "stops receiving the records its secret filters select on a secret channel.",
    );
    expect(run.stdout).not.toContain("keeps receiving");
    expect(run.stdout).not.toContain("`default`");
  });

  it("reads a preview from a pipe, which has no size to check, within the same limit", async () => {
    const fifo = join(dir, "preview.fifo");
    execFileSync("mkfifo", [fifo]);
    const text = JSON.stringify({ steps: [{ op: "same", urn: stackResource("dev").urn }] });
    const writer = new Promise<void>((resolve, reject) => {
      const stream = createWriteStream(fifo);
      stream.on("error", reject);
      stream.end(text, resolve);
    });
    const run = await runCli(["review", fifo], { cwd: dir });
    await writer;
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("### `infra/dev`");
  });

  it("reads input whose keys are the names of JavaScript's own properties as plain data", async () => {
    const hook = hookResource("dev", "odd", "u-odd", {
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "constructor", value: "x" },
      ],
    });
    const file = writeJson("own-names.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        { op: "create", urn: hook.urn, newState: hook },
        { op: "toString", urn: urnOf("dev", "other"), newState: hookResource("dev", "other", "u-other") },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("of `constructor` `x` on channel `odd`");
    expect(run.stdout).not.toContain("undefined");
    expect(run.stdout).not.toContain("`other`");
  });
});

describe("bounded input", () => {
  it("refuses a preview of more steps than it reads, naming the limit", async () => {
    const step = { op: "same", urn: stackResource("dev").urn };
    const file = "many-steps.json";
    writeFileSync(
      join(dir, file),
      `{"steps":[${Array(MAX_INPUT_ITEMS + 1)
        .fill(JSON.stringify(step))
        .join(",")}]}`,
    );
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `many-steps.json: ${MAX_INPUT_ITEMS + 1} steps, more than a command reads (${MAX_INPUT_ITEMS}): give the output of \`pulumi preview --json --show-sames\` (one file per stack, or - for stdin).\n`,
    );
  });

  it("refuses input of more objects and arrays than it reads, before parsing it", async () => {
    const file = "many-objects.json";
    writeFileSync(join(dir, file), `{"steps":[],"x":[${"{},".repeat(MAX_INPUT_CONTAINERS)}{}]}`);
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `many-objects.json: more than ${MAX_INPUT_CONTAINERS} objects and arrays, more than a command reads: give the output of \`pulumi preview --json --show-sames\` (one file per stack, or - for stdin).\n`,
    );
  });

  it("refuses a file or a stdin larger than it reads, before holding it in memory", async () => {
    const file = "huge.json";
    writeFileSync(join(dir, file), "");
    truncateSync(join(dir, file), MAX_INPUT_BYTES + 1);
    const run = await runCli(["audit", "--token", HOOKS_TOKEN, "--state", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "huge.json: 257 MiB, more than a command reads (256 MiB): give a file written by `pulumi stack export --stack <name> > huge.json`.\n",
    );
    let pulled = 0;
    const endless = Readable.from(
      (function* () {
        for (let i = 0; i < 1000; i += 1) {
          pulled += 1;
          yield Buffer.alloc(1024);
        }
      })(),
    );
    await expect(readStream(endless, 10 * 1024)).rejects.toThrow(
      "stdin: the input goes on, more than a command reads (1 MiB): give the preview or state of one stack.",
    );
    expect(pulled).toBeLessThan(20);
  });
});
