/**
 * What a resource class registers (provider/resource-kit/stored-provider.ts): the provider text stored in
 * state, and the classes' outputs in a program.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as PulumiModule from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { webhook } from "../../../provider/registry";
import { CONTRACT, contractNeededMessage } from "../../../provider/resource-kit/contract";
import { storedProviderText } from "../../../provider/resource-kit/stored-provider";
import { callFailure, type DynamicHost, startDynamicHost } from "../../helpers/dynamic-host";
import { HOST, webhookArgs } from "../../helpers/fixtures";
import { mockedPulumi, serviceOutputs, settled, webhookProviderText } from "../../helpers/mocks";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { useRegisteredWorld } from "../../helpers/world";

describe("the stored provider text", () => {
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
        JSON.stringify({
          name: "@service/pulumi",
          version: "0.0.1",
          exports: { "./runtime": "./runtime.js" },
        }),
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
});

/**
 * This package's resource classes as a TypeScript program constructs them, under Pulumi's mocks.
 *
 * Each class exposes as outputs exactly what the provider's schema declares for its type, and the
 * inputs it was given. Regression: a Webhook given no `channel` or `apiVersion` had no such output (its
 * type said `Output<string>`, its value was undefined), and each carried outputs no type declared
 * (`secretKeyHash`, and `connection` when none was given).
 */
describe("the resource classes in a program", () => {
  const SCHEMA = JSON.parse(readFileSync(join(__dirname, "../../../schema.json"), "utf8")) as {
    resources: Record<string, { properties: Record<string, unknown> }>;
  };
  const declaredOutputs = (type: string) =>
    Object.keys(SCHEMA.resources[`service:index:${type}`]!.properties);

  /** The names of the outputs a resource object carries (the SDK's own and the stored provider's aside). */
  function outputsOf(pulumi: typeof PulumiModule, resource: PulumiModule.Resource): string[] {
    const members = resource as unknown as Record<string, unknown>;
    return Object.keys(members)
      .filter(
        (key) =>
          pulumi.Output.isInstance(members[key]) && !["urn", "id"].includes(key) && !key.startsWith("__"),
      )
      .sort();
  }

  /** What the schema declares for `type`, and the inputs given. */
  const expectedOutputs = (type: string, given: readonly string[]) =>
    [...new Set([...declaredOutputs(type), ...given])].sort();

  /** Each class with only its required inputs. */
  function constructions(service: ReturnType<typeof mockedPulumi>["service"]) {
    const registration = { domainName: HOST };
    return {
      Webhook: { inputs: webhookArgs(), make: () => new service.Webhook("hook", webhookArgs()) },
      DomainRegistration: {
        inputs: registration,
        make: () => new service.DomainRegistration("registration", registration),
      },
      DomainVerification: {
        inputs: registration,
        make: () => new service.DomainVerification("verification", registration),
      },
      VerificationFile: {
        inputs: { directory: "/srv/www", key: "k", content: "c" },
        make: () => new service.VerificationFile("file", { directory: "/srv/www", key: "k", content: "c" }),
      },
    };
  }

  describe("the resource classes' outputs", () => {
    it("are what the schema declares for each type, and the inputs given, with only the required inputs", async () => {
      const { pulumi, service } = mockedPulumi({ outputs: serviceOutputs });
      const made: PulumiModule.CustomResource[] = [];
      for (const [type, { inputs, make }] of Object.entries(constructions(service))) {
        const resource = make();
        made.push(resource);
        expect(outputsOf(pulumi, resource), type).toEqual(expectedOutputs(type, Object.keys(inputs)));
      }
      await settled(
        pulumi,
        made.map((r) => r.urn),
      );
    });

    it("of a Domain's steps are the schema's outputs and the inputs the Domain passed on, none undefined", async () => {
      const { pulumi, service } = mockedPulumi({ outputs: serviceOutputs });
      const domain = new service.Domain("domain", {
        domainName: HOST,
        publish: service.directoryPublisher("/srv/www"),
      });
      const adopted = new service.Domain("adopted", { domainName: HOST, adopt: true });
      expect(outputsOf(pulumi, domain.registration!)).toEqual(
        expectedOutputs("DomainRegistration", ["domainName"]),
      );
      const passed = ["domainName", "verifier", "url", "registerToken", "expiresAt"];
      expect(outputsOf(pulumi, domain.verification)).toEqual(expectedOutputs("DomainVerification", passed));
      expect(outputsOf(pulumi, adopted.verification)).toEqual(
        expectedOutputs("DomainVerification", ["adopt"]),
      );
      await settled(pulumi, [domain.urn, adopted.urn, domain.verification.urn, adopted.verification.urn]);
    });

    it("include a Webhook's channel and apiVersion left out, with the values the provider answered", async () => {
      const { pulumi, service } = mockedPulumi({
        outputs: (args) => (args.type.endsWith(":Webhook") ? { channel: "default", apiVersion: "2.0" } : {}),
      });
      const hook = new service.Webhook("hook", webhookArgs());
      expect(await settled(pulumi, [hook.channel, hook.apiVersion])).toEqual(["default", "2.0"]);
    });
  });
});
