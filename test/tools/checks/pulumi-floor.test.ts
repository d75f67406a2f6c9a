import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Consumer, createConsumer, mockedProgramScript } from "../../helpers/consumer";
import { DOMAIN_PROGRAM, domainLifecycleOverGrpc, providerTexts } from "../../helpers/domain-lifecycle";
import { startDynamicHost } from "../../helpers/dynamic-host";
import { HOST, SECRET } from "../../helpers/fixtures";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { registerDomain, startWorld, type World } from "../../helpers/world";

/**
 * The packed package next to an older @pulumi/pulumi: that version's closure serializer writes the
 * providers (under setMocks) and that version's dynamic-provider host runs them over gRPC, Configure
 * first, as the engine would. It downloads each version, so it runs only through `npm run
 * test:pulumi-floor` (tools/checks/pulumi-floor.mts), which sets SERVICE_PULUMI_VERSIONS.
 */
const repo = join(__dirname, "../../..");
const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
const versions = (process.env.SERVICE_PULUMI_VERSIONS ?? "").split(",").filter(Boolean);
const outsideRange = process.env.SERVICE_PULUMI_OUTSIDE_RANGE === "1";

// npm test lists this file with nothing to run: vitest refuses a file without tests.
it.skipIf(versions.length === 0)("runs through npm run test:pulumi-floor only", () => {
  expect(versions.length).toBeGreaterThan(0);
});

describe.each(versions)("with @pulumi/pulumi %s", (version) => {
  let consumer: Consumer;
  let world: World;
  beforeAll(async () => {
    consumer = createConsumer(repo, { pulumiVersion: version, ignorePeerRange: outsideRange });
    world = await startWorld();
  }, 240_000);
  afterAll(async () => {
    await world?.close();
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });
  const registered = (body: string) => JSON.parse(consumer.run(mockedProgramScript(body)));
  const host = () =>
    startDynamicHost({ cwd: consumer.dir, pulumiDir: consumer.pulumiDir, env: { SERVICE_RATE_LIMIT: "0" } });

  it("is the version installed", () => {
    expect(consumer.run(`process.stdout.write(require("@pulumi/pulumi/package.json").version)`)).toBe(
      version,
    );
  });

  it("type-checks a program that uses every entry point against that version's declarations", () => {
    const entries = Object.keys(manifest.exports).filter((k) => k !== "../../provider/package.json");
    writeFileSync(
      join(consumer.dir, "program.ts"),
      `${entries.map((e, i) => `import * as entry${i} from "${manifest.name}${e.slice(1)}";`).join("\n")}
      import * as pulumi from "@pulumi/pulumi";
      export const hook = new entry0.Webhook("orders", {
        endpoint: "https://${HOST}/service/events",
        secretKey: pulumi.secret("${SECRET}"),
        filters: [{ key: "activity.name", value: "authentication" }],
      });
      export const all = [${entries.map((_, i) => `entry${i}`).join(", ")}];\n`,
    );
    writeFileSync(
      join(consumer.dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "node16",
          moduleResolution: "node16",
          // The `./schema.json` entry, imported as a user's tooling would.
          resolveJsonModule: true,
          target: "ES2022",
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(repo, "node_modules/@types")],
        },
        files: ["program.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], {
      cwd: consumer.dir,
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
  });

  it("serializes the Webhook provider and runs its lifecycle through that version's host", async () => {
    const domain = await registerDomain(world);
    const [hook] = registered(`
      return [new service.Webhook("orders", {
        endpoint: "https://${HOST}/service/events", secretKey: "${SECRET}",
        filters: [{ key: "activity.name", value: "authentication" }],
      }).urn];`);
    const webhookHost = await host();
    try {
      await webhookLifecycleOverGrpc(webhookHost, hook.inputs.__provider, world);
    } finally {
      await webhookHost.close();
      await world.api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`);
    }
  });

  it("serializes the Domain providers and runs their lifecycle through that version's host", async () => {
    const domainHost = await host();
    try {
      await domainLifecycleOverGrpc(domainHost, providerTexts(registered(DOMAIN_PROGRAM)), world);
    } finally {
      await domainHost.close();
    }
  });
});
