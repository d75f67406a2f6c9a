import { describe, expect, it } from "vitest";
import { webhookLifecycle as webhook } from "../../../provider/webhook/declaration";
import { failedFields, failureOn } from "../../helpers/check-failures";
import { HOST, webhookArgs } from "../../helpers/fixtures";
import { hookBody, useRegisteredWorld } from "../../helpers/world";

const world = useRegisteredWorld();

const args = webhookArgs;

const INJECTED = [
  ["a CR LF header injection", `https://${HOST}/in\r\nX-Injected: 1`],
  ["a TAB", `https://${HOST}/in\tside`],
  ["a NUL", `https://${HOST}/in\u0000side`],
] as const;

describe("control characters (regression: the URL parser strips them, the raw value was stored)", () => {
  it.each(INJECTED)("check refuses %s in the endpoint, naming the property", async (_name, endpoint) => {
    const { failures } = await webhook.check({}, args({ endpoint }));
    expect(failures).toEqual([
      { property: "", reason: expect.stringMatching(/^endpoint must not contain control characters/) },
    ]);
  });

  it.each([
    ["channel", { channel: "orders\n" }, "channel"],
    [
      "a filter value",
      { filters: [{ key: "activity.name", value: "authentication\u0007" }] },
      "filters[0].value",
    ],
  ])("check refuses one in the %s", async (_name, override, property) => {
    const { failures } = await webhook.check({}, args(override));
    expect(failedFields(failures)).toContain(property);
    expect(failureOn(failures, property)!.reason).toMatch(/control characters/);
  });

  it.each(INJECTED)("the sandbox answers 400 to %s and stores nothing", async (_name, endpoint) => {
    const response = await world.current.api("POST", "/v2/webhooks", {
      body: hookBody({ endpoint: { type: "url", value: endpoint } }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.json)).toMatch(/control characters/);
    const listed = await world.current.api("POST", "/v2/search/webhooks", { body: {} });
    expect(listed.json.items).toEqual([]);
  });

  it("the sandbox refuses a channel with a line break", async () => {
    const response = await world.current.api("POST", "/v2/webhooks", {
      body: hookBody({ channel: "a\r\nb" }),
    });
    expect(response.status).toBe(400);
  });
});
