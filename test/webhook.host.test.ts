import { describe, it } from "vitest";
import { startDynamicHost } from "./helpers/dynamic-host";
import { HOST, SECRET } from "./helpers/fixtures";
import { mockedPulumi, settled } from "./helpers/mocks";
import { webhookLifecycleOverGrpc } from "./helpers/webhook-lifecycle";
import { useRegisteredWorld } from "./helpers/world";

const worldRef = useRegisteredWorld();

describe("the real dynamic-provider host, over gRPC, in this repository", () => {
  it("runs Configure, Check, Create, Diff, Read and Delete", async () => {
    const { pulumi, service, registered } = mockedPulumi();
    const hook = new service.Webhook("orders", {
      endpoint: `https://${HOST}/service/events`,
      secretKey: SECRET,
      filters: [{ key: "activity.name", value: "authentication" }],
    });
    await settled(pulumi, [hook.urn]);
    const providerText = registered[0]!.inputs.__provider as string;
    const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
    try {
      await webhookLifecycleOverGrpc(host, providerText, worldRef.current);
    } finally {
      await host.close();
    }
  });
});
