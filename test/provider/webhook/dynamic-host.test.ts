import { describe, it } from "vitest";
import { startDynamicHost } from "../../helpers/dynamic-host";
import { webhookProviderText } from "../../helpers/mocks";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { useRegisteredWorld } from "../../helpers/world";

const worldRef = useRegisteredWorld();

describe("the real dynamic-provider host, over gRPC, in this repository", () => {
  it("runs Configure, Check, Create, Diff, Read and Delete", async () => {
    const providerText = await webhookProviderText();
    const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
    try {
      await webhookLifecycleOverGrpc(host, providerText, worldRef.current);
    } finally {
      await host.close();
    }
  });
});
