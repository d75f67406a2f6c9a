/**
 * What review makes of the previews (provider/cli/review-model.ts): a Webhook whose endpoint the program
 * made secret (`pulumi.secret(...)`), which a preview shows as `[secret]`, is called "a secret endpoint"
 * in review's sentences, never the endpoint known only after the update.
 */
import { describe, expect, it } from "vitest";
import { readPreview } from "../../../provider/cli/preview-json";
import { reviewOf } from "../../../provider/cli/review-model";
import { webhook } from "../../../provider/registry";

const urn = `urn:pulumi:dev::infra::${webhook.token}::orders`;

const hookState = (uuid: string, endpoint: unknown, channel = "orders") => ({
  urn,
  type: webhook.token,
  id: uuid,
  inputs: { endpoint, channel, filters: [{ key: "activity.name", value: "authentication" }] },
  outputs: { webhookUuid: uuid, owner: { organization: "acme" } },
});

describe("a secret endpoint", () => {
  it("is named as such in review's sentences, where a replace cannot keep it", () => {
    const preview = readPreview(
      "dev.json",
      JSON.stringify({
        steps: [
          {
            op: "replace",
            urn,
            oldState: { ...hookState("u1", "[secret]"), delete: true },
            newState: hookState("u1", "[secret]", "orders-v2"),
            replaceReasons: ["channel"],
          },
        ],
      }),
    );
    const [change] = reviewOf([preview]).organizations[0]!.stacks[0]!.changes;
    expect(change!.impact.slice(0, 2)).toEqual([
      "a secret endpoint stops receiving `authentication` records on channel `orders`.",
      "a secret endpoint starts receiving `authentication` records on channel `orders-v2`.",
    ]);
  });
});
