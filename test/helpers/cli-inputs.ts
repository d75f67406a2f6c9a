/**
 * What `service-pulumi review` and `audit` read, as an attacker could write it: Webhook resources as a
 * state or a preview's step holds them, the stack's own resource, states and previews of them, written
 * into a folder of the test's own; and a Pulumi project folder whose `pulumi` is a fake that logs its calls.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, vi } from "vitest";
import { webhook as webhookDeclaration } from "../../provider/registry";
import { runCli } from "./cli-io";
import { fakePulumi } from "./fake-pulumi";
import { HOOKS_TOKEN, HOST } from "./fixtures";
import { scripted } from "./scripted-server";

export const HOOK = `https://${HOST}/service/events`;
export const TYPE = webhookDeclaration.token;

/** What Pulumi writes a secret as in a stack export. */
export const envelope = (ciphertext: string) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext,
});

export const urnOf = (stack: string, name: string, type = TYPE, project = "infra") =>
  `urn:pulumi:${stack}::${project}::${type}::${name}`;

/** A Webhook resource as a state or a preview's step holds it; `outputs` replace the default ones. */
export const hookResource = (
  stack: string,
  name: string,
  uuid: string,
  outputs: Record<string, unknown> = {},
) => ({
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

export const stackResource = (stack: string, project = "infra") => ({
  urn: `urn:pulumi:${stack}::${project}::pulumi:pulumi:Stack::${project}-${stack}`,
  type: "pulumi:pulumi:Stack",
});

export const stateOf = (resources: unknown[], extra: Record<string, unknown> = {}) => ({
  version: 3,
  deployment: { manifest: {}, resources, ...extra },
});

/** A preview of `stack` whose steps leave `resources` as they are, with the config the program's stack shows. */
export const previewOf = (
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

/**
 * A folder of the file's own (removed after it), in which the commands run; the environment each test
 * stubs is restored after it.
 */
export function useCliFolder(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** Writes `json` to `name` in the folder, and gives `name`, as the commands (run there) name it. */
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

  /** Audits the state file `state` against the API at `url`, in the folder. */
  const auditAt = (url: string, state: string, more: string[] = []) =>
    runCli(["audit", "--token", HOOKS_TOKEN, "--base-url", url, "--state", state, ...more], { cwd: dir });

  return { dir, writeJson, projectFolder, auditAt };
}

const OWNER = { organization: { name: "acme" }, user: { username: "acme-alice" } };

/** A webhook as the organization's listing shows it, of `owner` (acme's, unless said). */
export const listedWebhook = (uuid: string, owner = OWNER) => ({
  webhook_uuid: uuid,
  endpoint: { type: "url", value: HOOK },
  channel: "orders",
  filters: [{ key: "activity.name", value: "authentication" }],
  webhook_owner: owner,
});

/** A fake API whose webhook search answers `page(request index)`, and that records every request. */
export const fakeApi = (page: (index: number) => { items: unknown[]; next_cursor: string | null }) =>
  scripted((request, index) =>
    request.path.includes("/search/webhooks")
      ? page(index)
      : request.path.includes("/search/")
        ? { items: [], next_cursor: null }
        : { status: "ok" },
  );
