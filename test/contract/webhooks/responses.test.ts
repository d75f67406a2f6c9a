import { describe, expect, it } from "vitest";
import { Webhook } from "../../../contract/webhooks/responses";
import { ownerOf, webhookRecord } from "../../../provider/webhook/create";

const ENDPOINT = "https://hooks.example.com/events";

describe("response shapes", () => {
  it("fill what the service left out: the default channel, no filters; the resources an unnamed owner", () => {
    const hookWire = { webhook_uuid: "w", endpoint: { type: "url", value: ENDPOINT } };
    const hook = Webhook.parse(hookWire);
    expect(hook).toEqual({ ...hookWire, channel: "default", filters: [] });
    expect(webhookRecord(hook).owner).toEqual({ organization: "", username: "" });
    expect(ownerOf({ organization: { name: "acme" } })).toEqual({ organization: "acme", username: "" });
    // Each generation names the creation time its own way; the resources read either.
    const time = { display: "then", epoch: 1 };
    for (const key of ["create_time", "create_timestamp"]) {
      expect(webhookRecord(Webhook.parse({ ...hookWire, [key]: time })).createTime).toEqual(time);
    }
  });
});
