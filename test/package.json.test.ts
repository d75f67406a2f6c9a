import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Analyzer, probeStacks, startAnalyzer } from "./helpers/analyzer";
import { type Consumer, createConsumer, mockedProgramScript } from "./helpers/consumer";
import { DOMAIN_PROGRAM, domainLifecycleOverGrpc, providerTexts } from "./helpers/domain-lifecycle";
import { startDynamicHost } from "./helpers/dynamic-host";
import { HOST, SECRET } from "./helpers/fixtures";
import { webhookLifecycleOverGrpc } from "./helpers/webhook-lifecycle";
import { registerDomain, startWorld, type World } from "./helpers/world";

const root = join(__dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** What `npm pack` puts in the tarball, read without writing one. */
function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: root,
    encoding: "utf8",
  });
  return (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
}

describe("the package manifest", () => {
  it("gives node10 resolution (typesVersions) the same declarations as exports, for every subpath", () => {
    // Pulumi's TypeScript template still resolves modules as node10, which ignores `exports`.
    const fromExports: Record<string, string> = {};
    for (const [subpath, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
      if (subpath === "." || typeof target !== "object" || target === null) continue;
      fromExports[subpath.slice(2)] = (target as { types: string }).types;
    }
    const fromTypesVersions = Object.fromEntries(
      Object.entries(manifest.typesVersions["*"] as Record<string, string[]>).map(([k, v]) => [k, v[0]]),
    );
    expect(fromTypesVersions).toEqual(fromExports);
    expect(manifest.types).toBe(`${manifest.exports["."].types.slice(2)}`);
  });

  it("names its repository, homepage, issue tracker and keywords", () => {
    expect(manifest.repository.url).toMatch(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs.url).toMatch(/\/issues$/);
    expect(manifest.keywords).toContain("pulumi");
  });
});

describe("the packed tarball", () => {
  const files = packedFiles();

  it("carries the Apache-2.0 LICENSE that package.json declares, and the README", () => {
    expect(manifest.license).toBe("Apache-2.0");
    expect(files).toContain("LICENSE");
    expect(files).toContain("README.md");
    const license = readFileSync(join(root, "LICENSE"), "utf8");
    expect(license).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
    expect(license).not.toContain("[yyyy]");
  });

  it("ships only source maps whose sources are shipped too or embedded (sourcesContent)", () => {
    const maps = files.filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(10);
    const unresolved: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(root, map), "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      sources.forEach((source, i) => {
        const shipped = files.includes(join(map, ".", source));
        if (!shipped && typeof sourcesContent?.[i] !== "string") unresolved.push(`${map} -> ${source}`);
      });
    }
    expect(unresolved).toEqual([]);
  });
});

let consumer: Consumer;
let world: World;

const analyzers: Analyzer[] = [];

beforeAll(async () => {
  // One consumer for every packed check: an install is most of this file's time.
  const policyVersion = require("@pulumi/policy/package.json").version as string;
  consumer = createConsumer(process.cwd(), { dependencies: { "@pulumi/policy": policyVersion } });
  world = await startWorld();
}, 240_000);

afterAll(async () => {
  await Promise.all(analyzers.map((a) => a.close()));
  await world?.close();
  if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
});

function registeredBy(body: string): { type: string; name: string; inputs: Record<string, unknown> }[] {
  return JSON.parse(consumer.run(mockedProgramScript(body)));
}

describe("installed from the npm pack tarball", () => {
  it("exposes every module a serialized provider requires", () => {
    const out = consumer.run(`
      for (const id of ["@service/pulumi", "@service/pulumi/runtime", "@service/pulumi/client", "@service/pulumi/sandbox", "@service/pulumi/receiver", "@service/pulumi/policy"]) require(id);
      process.stdout.write("ok");`);
    expect(out).toBe("ok");
  });

  it("ships the OpenAPI document at @service/pulumi/openapi.json, as the repository holds it", () => {
    const out = consumer.run(`
      const { readFileSync } = require("node:fs");
      process.stdout.write(readFileSync(require.resolve("@service/pulumi/openapi.json"), "utf8"));`);
    expect(out).toBe(readFileSync(join(process.cwd(), "openapi.json"), "utf8"));
  });

  it("runs the Webhook lifecycle through the real host", async () => {
    const domain = await registerDomain(world);
    const [hook] = registeredBy(`
      return [new service.Webhook("orders", {
        endpoint: "https://${HOST}/service/events", secretKey: "${SECRET}",
        filters: [{ key: "activity.name", value: "authentication" }],
      }).urn];`);
    const host = await startDynamicHost({
      cwd: consumer.dir,
      pulumiDir: consumer.pulumiDir,
      env: { SERVICE_RATE_LIMIT: "0" },
    });
    try {
      await webhookLifecycleOverGrpc(host, hook!.inputs.__provider as string, world);
    } finally {
      await host.close();
      await world.api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`);
    }
  });

  it("runs the Domain lifecycle through the real host", async () => {
    const texts = providerTexts(registeredBy(DOMAIN_PROGRAM));
    const host = await startDynamicHost({
      cwd: consumer.dir,
      pulumiDir: consumer.pulumiDir,
      env: { SERVICE_RATE_LIMIT: "0" },
    });
    try {
      await domainLifecycleOverGrpc(host, texts, world);
    } finally {
      await host.close();
    }
  });
});

describe("the policy pack installed from the npm pack tarball, beside @pulumi/policy", () => {
  it("exports servicePolicies at @service/pulumi/policy", () => {
    const out = consumer.run(`
      const { servicePolicies } = require("@service/pulumi/policy");
      process.stdout.write(servicePolicies.map((p) => p.name).join(","));`);
    expect(out.split(",")).toContain("service-webhook-quota");
  });

  it.each([
    ["as the Pulumi CLI starts it", "engine"],
    ["with `node <pack>`", "node"],
  ] as const)("serves the probe stacks when started %s", async (_, launch) => {
    const pack = await startAnalyzer({
      packDir: join(consumer.dir, "node_modules/@service/pulumi/policy-pack"),
      launch,
      cwd: consumer.dir,
    });
    analyzers.push(pack);
    // Started in the pack's folder (no package.json) or the project's (no version), it has the package's.
    expect((await pack.info()).version).toBe(require("../package.json").version);
    const policiesOf = async (stack: keyof typeof probeStacks) =>
      (await pack.analyzeStack(probeStacks[stack])).map((d) => d.policyName);
    expect(await policiesOf("elevenWebhooks")).toEqual([
      "service-webhook-quota",
      "service-webhook-replace-at-quota",
    ]);
    expect(await policiesOf("hostWithoutDomain")).toEqual(["service-webhook-domain-in-stack"]);
    expect(await policiesOf("identicalWebhooks")).toEqual(["service-webhook-unique"]);
    expect(await policiesOf("noDomainDependency")).toEqual(["service-webhook-depends-on-domain"]);
    expect(await pack.analyzeStack(probeStacks.clean)).toEqual([]);
  });
});
