/**
 * Reconciling a lost webhook create (provider/webhook/create.ts): which listed webhooks it may have
 * made, the window it waits for them, and re-listing until one appears within that window.
 */

import { beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import { activeWebhooks } from "../../../provider/lifecycle/listings";
import type { WebhookRecord as ListedWebhook } from "../../../provider/webhook/create";
import {
  awaitCandidates,
  candidates,
  candidatesIn,
  RECONCILE_ENV,
  reconcileWindowMs,
} from "../../../provider/webhook/create";
import { claim, identityOf } from "../../../provider/webhook/resource";
import { clientOf, clock, hook, scripted, useScriptedServers } from "../../helpers/scripted-server";

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

describe("re-listing after a lost create", () => {
  useScriptedServers();

  const identity = identityOf({ endpoint: "https://hooks.example.com/e", channel: "default", filters: [] });
  /** Lists nothing `emptyFor` times, then a webhook matching `identity`, created now. */
  const listing = (emptyFor: number) =>
    scripted((_r, index) => ({
      items:
        index < emptyFor
          ? []
          : [{ ...hook(1), channel: "default", create_time: { display: "", epoch: clock.now() / 1000 } }],
    }));

  it("lists afresh at growing intervals until the webhook appears, keeping the time it was given", async () => {
    const server = await listing(2);
    const client = clientOf(server.url);
    const since = clock.now() - 1_000;
    const { found, since: kept } = await awaitCandidates(
      { client, identity, exclude: [], sentAtLocal: clock.now(), since },
      30_000,
    );
    expect(found?.map((h) => h.webhookUuid)).toEqual(["hook-1"]);
    expect(kept).toBe(since);
    expect(server.seen).toHaveLength(3);
    expect(clock.slept).toEqual([1_000, 2_000]);
  });

  it("keeps the time it was given when no listing succeeds at all", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(500).end();
    });
    const since = clock.now() - 1_000;
    const result = await awaitCandidates(
      { client: clientOf(server.url), identity, exclude: [], sentAtLocal: clock.now(), since },
      0,
    );
    expect(result).toEqual({ found: undefined, since });
  });

  it("looks at a fresh listing, not one cached before the create", async () => {
    const server = await listing(1);
    const client = clientOf(server.url);
    expect(await activeWebhooks(client)).toEqual([]);
    const found = await candidates({ client, identity, exclude: [], since: clock.now() - 1_000 });
    expect(found.map((h) => h.webhookUuid)).toEqual(["hook-1"]);
  });

  it("stops at the end of its window, having waited no longer than the window", async () => {
    const server = await listing(10);
    const { found } = await awaitCandidates(
      { client: clientOf(server.url), identity, exclude: [], sentAtLocal: clock.now() },
      2_500,
    );
    expect(found).toEqual([]);
    expect(clock.slept).toEqual([1_000, 1_500]);
    expect(server.seen).toHaveLength(3);
  });
});
