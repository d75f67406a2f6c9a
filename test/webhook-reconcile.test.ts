import { describe, expect, it } from "vitest";
import { activeWebhooks } from "../provider/lifecycle/listings";
import { awaitCandidates, candidates } from "../provider/webhook/reconcile";
import { identityOf } from "../provider/webhook/schema";

import { clientOf, clock, hook, scripted, useScriptedServers } from "./helpers/scripted-server";

/** Reconciling a lost webhook create: re-listing until the webhook appears, within its window. */

useScriptedServers();

describe("re-listing after a lost create", () => {
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
