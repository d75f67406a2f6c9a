/**
 * The provider text stored in state, through the real dynamic-provider host. It names the runtime contract
 * it asks for, and when the installed `@service/pulumi` cannot serve it (not loadable from the project, or
 * a runtime of another contract), every call fails with one sentence that says what the stack needs.
 * Regression: the serialized closure stored before was 3.6 KB, stored twice per resource and rewritten
 * with the whole checkpoint on every step; without the package, every Delete failed with Node's raw
 * "Cannot find module".
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { webhook } from "../../../provider/registry";
import { CONTRACT, contractNeededMessage } from "../../../provider/resource-kit/contract";
import { storedProviderText } from "../../../provider/resource-kit/stored-provider";
import { callFailure, type DynamicHost, startDynamicHost } from "../../helpers/dynamic-host";
import { webhookArgs } from "../../helpers/fixtures";
import { webhookProviderText } from "../../helpers/mocks";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { useRegisteredWorld } from "../../helpers/world";

const URN = `urn:pulumi:dev::quickstart::${webhook.token}::orders`;
/** The sentence of contract 1, as its stored text carries it. */
const NEEDED =
  "The stack's resources need @service/pulumi >=0.1.0 installed in the program's project: keep it installed until they are deleted, and remove it in a later update than the one that deletes them.";

/**
 * Each released contract, with the stored text of a Webhook as its version writes it, to the letter: each
 * must be served for as long as docs/releasing.md says a version reads it.
 */
const RELEASED_CONTRACTS: Readonly<Record<number, string>> = {
  1: 'exports.handler=()=>{const m="The stack\'s resources need @service/pulumi >=0.1.0 installed in the program\'s project: keep it installed until they are deleted, and remove it in a later update than the one that deletes them.",p="@service/pulumi/runtime",e=()=>{throw Object.assign(Error(m),{stack:""})};try{require.resolve(p)}catch{e()}const s=require(p).storedProvider;return typeof s=="function"?s("webhook",1,m):e()}\n',
};

const worldRef = useRegisteredWorld();

/** The message of every call the engine makes with `text` as a Webhook's `__provider`; each must fail. */
async function everyCallFails(host: DynamicHost, text: string): Promise<string[]> {
  const props = { __provider: text, ...webhookArgs() };
  const id = "8f0c6a2e-2b55-4d0c-9a43-0d6c9d1c2a10";
  const calls = [
    host.check(URN, {}, props),
    host.diff(URN, id, props, props),
    host.create(URN, props),
    host.read(URN, id, props, props),
    host.update(URN, id, props, props),
    host.delete(URN, id, props),
  ];
  return Promise.all(calls.map(async (call) => (await callFailure(call)).message));
}

describe("the provider text stored in state", () => {
  it("is the one line a program registers, names contract 1 and its key, and stays under 450 bytes", async () => {
    const text = await webhookProviderText();
    expect(text).toBe(storedProviderText(webhook.key));
    // What this version writes is the released contract's text to the letter, and its sentence the table's.
    expect(text).toBe(RELEASED_CONTRACTS[CONTRACT]);
    expect(contractNeededMessage(CONTRACT)).toBe(NEEDED);
    // Twice per resource in every checkpoint the engine writes: the closure it replaces was about 3.5 KB.
    expect(text.length).toBeLessThan(450);
  });

  it("of each released contract is served by the installed runtime, through the whole lifecycle", async () => {
    expect(Object.keys(RELEASED_CONTRACTS)).toEqual([String(CONTRACT)]);
    const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
    try {
      for (const text of Object.values(RELEASED_CONTRACTS)) {
        await webhookLifecycleOverGrpc(host, text, worldRef.current);
      }
    } finally {
      await host.close();
    }
  });

  it("fails every call with the one sentence when the package cannot be loaded from the project", async () => {
    // A folder with no node_modules above it: the package uninstalled, only a transitive dependency under
    // pnpm, or a bundled program deployed without node_modules.
    const project = mkdtempSync(join(tmpdir(), "service-pulumi-no-package-"));
    const host = await startDynamicHost({ cwd: project });
    try {
      expect(await everyCallFails(host, storedProviderText(webhook.key))).toEqual(Array(6).fill(NEEDED));
      expect(host.output()).not.toContain("Cannot find module");
      expect(host.output()).not.toMatch(/^\s+at /m);
    } finally {
      await host.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("fails every call with the one sentence when the runtime found has no storedProvider at all", async () => {
    // A runtime from before the contract existed, or one that dropped it: a project whose
    // @service/pulumi/runtime resolves to a module without the function.
    const project = mkdtempSync(join(tmpdir(), "service-pulumi-no-stored-provider-"));
    const pkg = join(project, "node_modules/@service/pulumi");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "@service/pulumi", version: "0.0.1", exports: { "./runtime": "./runtime.js" } }),
    );
    writeFileSync(join(pkg, "runtime.js"), "exports.configure = () => {};\n");
    const host = await startDynamicHost({ cwd: project });
    try {
      expect(await everyCallFails(host, storedProviderText(webhook.key))).toEqual(Array(6).fill(NEEDED));
      expect(host.output()).not.toContain("TypeError");
      expect(host.output()).not.toMatch(/^\s+at /m);
    } finally {
      await host.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("fails every call with the sentence the text carries when the runtime is older than its contract", async () => {
    // A downgrade, simulated: the installed runtime serves contract 1, and the text asks for contract 2 as
    // a later version would write it, with the range that version needs.
    const needed = NEEDED.replace(">=0.1.0", ">=0.2.0");
    const later = storedProviderText(webhook.key).replace(NEEDED, needed).replace(",1,m)", ",2,m)");
    const host = await startDynamicHost({ cwd: process.cwd() });
    try {
      expect(await everyCallFails(host, later)).toEqual(Array(6).fill(needed));
      expect(host.output()).not.toMatch(/^\s+at /m);
    } finally {
      await host.close();
    }
  });
});
