import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Analyzer, probeStacks, startAnalyzer } from "./helpers/analyzer";
import { type Consumer, createConsumer } from "./helpers/consumer";

let consumer: Consumer;
let packDir: string;
const started: Analyzer[] = [];

beforeAll(() => {
  const policyVersion = require("@pulumi/policy/package.json").version as string;
  consumer = createConsumer(process.cwd(), {
    dependencies: { "@pulumi/policy": policyVersion.replace(/^v/, "") },
    linkPulumi: true,
  });
  packDir = join(consumer.dir, "node_modules/@service/pulumi/policy-pack");
}, 240_000);

afterAll(async () => {
  await Promise.all(started.map((a) => a.close()));
  if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
});

async function start(launch: "engine" | "node"): Promise<Analyzer> {
  const analyzer = await startAnalyzer({ packDir, launch, cwd: consumer.dir });
  started.push(analyzer);
  return analyzer;
}

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
    const pack = await start(launch);
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
