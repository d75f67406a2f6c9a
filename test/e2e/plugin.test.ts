/**
 * The provider plugin `service` under the real engine, from a packed install in a new folder: a TypeScript
 * program that reaches it by type token (`service:index:Webhook`, the `service:index:Domain` component), as
 * a program in any language does through its SDK. The project finds the plugin through Pulumi.yaml
 * (`plugins.providers`, path node_modules/@service/pulumi/plugin) or, without that, as
 * `pulumi-resource-service` in node_modules/.bin on PATH. Every scenario ends with one active webhook per
 * resource; nothing printed or stored holds a planted secret.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { builtPulumi } from "../../tools/engine/pulumi-engine.mts";
import { type Consumer, createConsumer } from "../helpers/consumer";
import { describeUnderEngine, webhooksIn } from "../helpers/engine";
import { HOST, SECRET } from "../helpers/fixtures";
import { expectShortSecretRefused, SECRET_WAYS } from "../helpers/secret-channels";
import {
  devStack,
  domainStack,
  expectLostCreateSettled,
  expectNoSecretIn,
  expectOneActivePerResource,
  expectSecretsEncrypted,
  useStage,
} from "../helpers/stage";

const root = join(__dirname, "../..");
const PROGRAM = join(__dirname, "plugin-program");
/** A lost answer is re-listed for this long before the provider gives up and keeps the create pending. */
const RECONCILE = { SERVICE_RECONCILE_SECONDS: "1" };

describeUnderEngine("the provider plugin under the real engine, from a packed install", () => {
  let consumer: Consumer;
  // Installed before the sandbox starts (useStage): npm runs synchronously here, and a sandbox left
  // unanswering that long drops the connections its callers keep alive.
  beforeAll(() => {
    consumer = createConsumer(root);
    for (const file of ["Pulumi.yaml", "index.ts", "tsconfig.json"]) {
      cpSync(join(PROGRAM, file), join(consumer.dir, file));
    }
  }, 240_000);
  afterAll(() => {
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });
  const stages = useStage();

  it("goes up with a Domain and two Webhooks, previews with no API call, refreshes and is destroyed", async () => {
    const stage = stages.current;
    const project = await domainStack(
      stage,
      {
        domain: "true",
        webhooks: [
          { name: "authentications", kind: "authentication" },
          { name: "fingerprints", kind: "fingerprint" },
        ],
      },
      { at: consumer.dir, stack: "domain" },
    );
    await project.run(["up", "--yes"]);
    await expectOneActivePerResource(stage, [project]);
    const state = await project.exported();
    const types = (state.deployment.resources ?? []).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "service:index:Domain",
        "service:index:DomainRegistration",
        "service:index:VerificationFile",
        "service:index:DomainVerification",
        "service:index:Webhook",
      ]),
    );
    expect(types.filter((t) => t.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
    expectSecretsEncrypted(state);

    const mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);

    await project.run(["refresh", "--yes", "--skip-preview"]);
    await project.run(["preview", "--expect-no-changes"]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
    expectNoSecretIn([project.checkpointFile("service-plugin-e2e", "domain")], stage);
  });

  it("imports a webhook created out of band and a registered domain, previews clean, and notices a rotated secret", async () => {
    const stage = stages.current;
    const uuid = await stage.webhookMadeByHand();
    const project = await devStack(stage, { adoptDomain: "true" }, { at: consumer.dir, stack: "imported" });

    // The Node.js language host here cannot generate program code (GenerateProgram): leave it out.
    const importing = (type: string, name: string, id: string) =>
      project.run(["import", type, name, id, "--yes", "--generate-code=false"]);
    const imported = await importing("service:index:Webhook", "orders", uuid);
    // The service never returns the secret: the import says which input to add, and why.
    expect(imported.output).toMatch(/secretKey .*never returns it.*`pulumi import` needs the key/s);
    await importing("service:index:DomainVerification", "hooks", HOST);
    const state = await project.exported();
    expect(webhooksIn(state)[0]?.id).toBe(uuid);
    const domain = state.deployment.resources?.find((r) => r.type === "service:index:DomainVerification");
    expect(domain?.outputs).toMatchObject({ domainName: HOST, status: "adopted", domainUuid: domain?.id });

    const mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);
    await project.run(["up", "--yes"]);
    await project.run(["preview", "--expect-no-changes"]);
    expect(await stage.active()).toEqual([uuid]);
    await expectOneActivePerResource(stage, [project]);

    // The secret the program gave was recorded with the inputs: a new one replaces the webhook.
    await project.config("webhookSecret", `${SECRET}-rotated`, true);
    const rotated = await project.run(["preview", "--diff"]);
    expect(rotated.output).toMatch(/\+-\s*service:index:Webhook: \(replace\)[\s\S]*secretKey/);
    await project.config("webhookSecret", SECRET, true);

    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
    // The imported domain was destroyed with the stack: register it again for the scenarios after this.
    await stage.registerHost();
  });

  it("keeps a create whose answer was lost, and the next up creates exactly one", async () => {
    const stage = stages.current;
    const project = await devStack(stage, {}, { at: consumer.dir, stack: "lost", env: RECONCILE });
    await expectLostCreateSettled(stage, project);
    await project.run(["preview", "--expect-no-changes"]);
    await expectOneActivePerResource(stage, [project]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });

  it.each(SECRET_WAYS)(
    "refuses a secret given by %s and too short at preview and up, and no channel holds it",
    async (way) => {
      const project = await devStack(stages.current, {}, { at: consumer.dir, stack: `short-${way}` });
      await expectShortSecretRefused(stages.current, project, way, "secretKey");
    },
  );

  it("is found as pulumi-resource-service on PATH by a project that does not list it", async () => {
    const stage = stages.current;
    const dir = join(consumer.dir, "ambient");
    mkdirSync(dir);
    for (const file of ["index.ts", "tsconfig.json"]) cpSync(join(PROGRAM, file), join(dir, file));
    writeFileSync(join(dir, "Pulumi.yaml"), "name: service-plugin-ambient\nruntime: nodejs\n");
    const bin = join(consumer.dir, "node_modules/.bin");
    const cli = builtPulumi() ?? "pulumi";
    const PATH = [bin, dirname(cli), process.env.PATH].join(delimiter);
    const project = await devStack(stage, {}, { at: dir, stack: "ambient", env: { PATH } });
    const up = await project.run(["up", "--yes"]);
    expect(up.output).toContain(
      `using pulumi-resource-service from $PATH at ${join(bin, "pulumi-resource-service")}`,
    );
    await expectOneActivePerResource(stage, [project]);
    await project.run(["preview", "--expect-no-changes"]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
