/**
 * Issue 42, item 2, under the real engine: a stack file that still holds the placeholder base URL it was
 * copied with fails `pulumi preview`, with one sentence on each resource that names the key and the
 * command that sets it, and with no API call. Regression: the preview showed `+ 6 to create`, and only
 * `pulumi up` failed.
 */
import { expect, it } from "vitest";
import { describeUnderEngine, diagnosticsOf } from "../helpers/engine";
import { devStack, useStage } from "../helpers/stage";

const SENTENCE = "The stack config service:baseUrl must be an http(s) URL";

describeUnderEngine("under the real engine, a placeholder base URL in the stack file", () => {
  const stages = useStage();

  it("fails pulumi preview on each Webhook, naming the key, with no API call", async () => {
    const stage = stages.current;
    const project = await devStack(stage, { webhooks: [{ name: "orders" }, { name: "refunds" }] });
    await project.config("service:baseUrl", "https://<the service's API base URL>");
    const mark = stage.mark();
    const preview = await project.run(["preview"], { allowFailure: true });
    expect(preview.status, preview.output).not.toBe(0);
    const diagnostics = diagnosticsOf(preview.output);
    const failed = [...diagnostics.entries()].filter(([, messages]) =>
      messages.some((m) => m.includes(SENTENCE)),
    );
    // The engine stops at the first failed check.
    expect(failed.length, preview.output).toBeGreaterThanOrEqual(1);
    expect(preview.output).toContain("`pulumi config set service:baseUrl <url>`");
    expect(stage.callsSince(mark)).toBe(0);
  });
});
