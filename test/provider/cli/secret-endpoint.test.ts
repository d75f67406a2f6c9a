/**
 * A Webhook whose endpoint the program made secret (`pulumi.secret(...)`): a preview shows it as
 * `[secret]`, a state as an encrypted envelope. Review and audit call it "a secret endpoint", never the
 * endpoint known only after the update, nor the endpoint the service lists for it.
 */
import { describe, expect, it } from "vitest";
import type { Webhook } from "../../../contract/webhooks/types";
import { auditOrganization } from "../../../provider/cli/audit-model";
import { readPreview } from "../../../provider/cli/preview-json";
import { reviewOf } from "../../../provider/cli/review-model";
import { readState } from "../../../provider/cli/state-export";
import { webhook } from "../../../provider/registry";

const HOOK = "https://hooks.acme.test/service/token-in-the-path";
const urn = `urn:pulumi:dev::infra::${webhook.token}::orders`;
/** How a stack export holds a secret. */
const envelope = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: "AAAA",
};

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

  it("is not shown by audit, though the listing shows it", () => {
    const state = readState(
      "dev.json",
      JSON.stringify({ version: 3, deployment: { resources: [hookState("u1", envelope)] } }),
    );
    const listed: Webhook = {
      webhook_uuid: "u1",
      channel: "orders",
      endpoint: { type: "url", value: HOOK },
      filters: [{ key: "activity.name", value: "authentication" }],
      webhook_owner: { organization: { name: "acme" } },
    };
    const audit = auditOrganization(
      {
        organization: "acme",
        stacks: [state],
        webhooks: { items: [listed], requests: 1 },
        domains: { items: [], requests: 1 },
      },
      [state],
    );
    expect(audit.webhooks[0]).toMatchObject({ status: "managed", secretEndpoint: true, endpoint: undefined });
    expect(JSON.stringify(audit)).not.toContain(HOOK);
  });
});
