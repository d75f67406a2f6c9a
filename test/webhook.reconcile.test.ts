/**
 * Which listed webhooks a lost create may have made: reconciliation's choice of candidates, and the
 * window it waits for them.
 */

import { beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, setProcessContext } from "../provider/context/process";
import { claim } from "../provider/webhook/claims";
import { candidatesIn, RECONCILE_ENV, reconcileWindowMs } from "../provider/webhook/reconcile";
import { identityOf } from "../provider/webhook/schema";
import type { WebhookRecord as ListedWebhook } from "../provider/webhook/wire";

const ENDPOINT = "https://hooks.example.com/events";
const FILTERS = [{ key: "activity.name", value: "authentication" }];

beforeEach(() => {
  setProcessContext(new ProcessContext());
});

describe("reconciliation candidates", () => {
  const identity = identityOf({ endpoint: ENDPOINT, channel: "default", filters: FILTERS });
  const since = 1_700_000_000_000;
  const listed = (
    uuid: string,
    createdMs: number | undefined,
    overrides: Partial<ListedWebhook> = {},
  ): ListedWebhook => ({
    webhookUuid: uuid,
    endpoint: ENDPOINT,
    channel: "default",
    filters: FILTERS,
    owner: { organization: "acme", username: "" },
    createTime: createdMs === undefined ? undefined : { display: "", epoch: createdMs / 1000 },
    ...overrides,
  });

  it("are the matching webhooks created since the attempt, within the clock margin, that nobody stands for", () => {
    claim("claimed");
    const hooks = [
      listed("margin", since - 2_000),
      listed("too-old", since - 3_000),
      listed("undated", undefined),
      listed("claimed", since),
      listed("excluded", since),
      listed("other-channel", since, { channel: "orders" }),
      listed("reordered", since, { filters: [{ key: "activity.name", values: ["authentication"] }] }),
    ];
    expect(candidatesIn(hooks, { identity, since, exclude: ["excluded"] }).map((h) => h.webhookUuid)).toEqual(
      ["margin", "undated", "reordered"],
    );
  });

  it.each([
    [undefined, 30_000, 5_000],
    ["10", 10_000, 5_000],
    ["2", 2_000, 2_000],
    ["0", 0, 0],
    ["-1", 30_000, 5_000],
    ["soon", 30_000, 5_000],
  ])(
    "re-list for %s seconds configured: %i ms after a lost answer, %i ms after a 5xx",
    (value, lost, answered) => {
      if (value !== undefined) vi.stubEnv(RECONCILE_ENV, value);
      expect(RECONCILE_ENV).toBe("SERVICE_RECONCILE_SECONDS");
      expect(reconcileWindowMs(false)).toBe(lost);
      expect(reconcileWindowMs(true)).toBe(answered);
    },
  );
});
