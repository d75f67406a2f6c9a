import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Consumer, createConsumer, mockedProgramScript } from "./helpers/consumer";
import { DOMAIN_PROGRAM, domainLifecycleOverGrpc, providerTexts } from "./helpers/domain-lifecycle";
import { startDynamicHost } from "./helpers/dynamic-host";
import { HOST, SECRET } from "./helpers/fixtures";
import { webhookLifecycleOverGrpc } from "./helpers/webhook-lifecycle";
import { registerDomain, startWorld, type World } from "./helpers/world";

let consumer: Consumer;
let world: World;

beforeAll(async () => {
  consumer = createConsumer(process.cwd());
  world = await startWorld();
}, 240_000);

afterAll(async () => {
  await world?.close();
  if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
});

function registeredBy(body: string): { type: string; name: string; inputs: Record<string, unknown> }[] {
  return JSON.parse(consumer.run(mockedProgramScript(body)));
}

describe("installed from the npm pack tarball", () => {
  it("exposes every module a serialized provider requires", () => {
    const out = consumer.run(`
      for (const id of ["@service/pulumi", "@service/pulumi/runtime", "@service/pulumi/client", "@service/pulumi/sandbox", "@service/pulumi/receiver"]) require(id);
      process.stdout.write("ok");`);
    expect(out).toBe("ok");
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
