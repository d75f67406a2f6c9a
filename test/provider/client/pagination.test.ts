import { describe, expect, it } from "vitest";
import {
  ConfigurationError,
  RequestValidationError,
  ResponseValidationError,
  ServiceClient,
  type ServiceError,
} from "../../../provider/client/index";
import { cannedServer, rejection, useClientSandbox } from "../../helpers/client-sandbox";
import { HOOKS_TOKEN } from "../../helpers/fixtures";

import {
  clientOf,
  failureOf,
  hook,
  type Seen,
  scripted,
  useScriptedServers,
} from "../../helpers/scripted-server";

/** Client paging: page sizes, cursors, and iterators that stop when a cursor comes back. */

useScriptedServers();

describe("paging", () => {
  /** Answers webhook searches one item a page; the page asked for with cursor c (or none: "start") points to next[c]. */
  const pager = (next: Record<string, string | null>, stopAfter = 10) =>
    scripted((request, index) => {
      const cursor = (JSON.parse(request.body) as { cursor: string | null }).cursor;
      // Past `stopAfter` pages the listing ends, so that a client without its guard still stops soon.
      return {
        items: [hook(index + 1)],
        next_cursor: index + 1 >= stopAfter ? null : next[cursor ?? "start"],
      };
    });
  const cursorsOf = (seen: Seen[]) =>
    seen.map((s) => (JSON.parse(s.body) as { cursor: string | null }).cursor);

  it("stops at the first cursor that comes back, even after another one in between (regression)", async () => {
    const server = await pager({ start: "a", a: "b", b: "a" });
    const listed: string[] = [];
    const error = await failureOf(
      (async () => {
        for await (const h of clientOf(server.url).webhooks.iterate()) listed.push(h.webhook_uuid);
      })(),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe(
      'POST /v2/search/webhooks answered with a body the client cannot read: the cursor "a" came back a second time, which would page forever. Check that the base URL points at the Service API.',
    );
    // Three pages: start, a, b; b points back at a, which is not asked for again.
    expect(cursorsOf(server.seen)).toEqual([null, "a", "b"]);
    expect(listed).toEqual(["hook-1", "hook-2", "hook-3"]);
  });

  it("stops when the service answers the cursor a listing was resumed from", async () => {
    const server = await scripted(() => ({ items: [], next_cursor: "resume-here" }));
    const error = await failureOf(
      (async () => {
        for await (const _ of clientOf(server.url).authentications.iterate({ cursor: "resume-here" })) {
          // no items
        }
      })(),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/the cursor "resume-here" came back a second time/);
    expect(cursorsOf(server.seen)).toEqual(["resume-here"]);
  });

  it("follows distinct cursors to the end, with the page size asked for on every page", async () => {
    const server = await pager({ start: "a", a: "b", b: "c", c: null });
    const listed: string[] = [];
    for await (const h of clientOf(server.url).webhooks.iterate({ limit: 3 })) listed.push(h.webhook_uuid);
    expect(cursorsOf(server.seen)).toEqual([null, "a", "b", "c"]);
    expect(listed).toEqual(["hook-1", "hook-2", "hook-3", "hook-4"]);
    expect(server.seen.every((s) => JSON.parse(s.body).limit === 3)).toBe(true);
  });

  it("passes the page size to every page of a domain listing too", async () => {
    const server = await scripted((_request, index) => ({
      items: [{ domain_uuid: `d${index}`, domain_name: `h${index}.example.com` }],
      next_cursor: index === 0 ? "next" : null,
    }));
    const names: string[] = [];
    for await (const d of clientOf(server.url).domains.iterate({ limit: 1 })) names.push(d.domain_name);
    expect(names).toEqual(["h0.example.com", "h1.example.com"]);
    expect(server.seen.map((s) => JSON.parse(s.body))).toEqual([
      { limit: 1, cursor: null },
      { limit: 1, cursor: "next" },
    ]);
  });

  it("hands back the service's next cursor and count, null at the end and the page's length without a count", async () => {
    const server = await scripted((_r, index) =>
      index === 0
        ? { items: [], item_count: 7, next_cursor: "more" }
        : index === 1
          ? { items: [hook(1)] }
          : { items: [] },
    );
    const client = clientOf(server.url);
    expect(await client.webhooks.list()).toEqual({ items: [], item_count: 7, next_cursor: "more" });
    expect(await client.webhooks.list()).toMatchObject({ item_count: 1, next_cursor: null });
    expect((await client.domains.list()).next_cursor).toBeNull();
  });

  it("accepts page sizes from 1 to the version's maximum, and refuses others before sending", async () => {
    const server = await scripted(() => ({ items: [] }));
    const v2 = clientOf(server.url);
    const v1 = clientOf(server.url, { apiVersion: "1.4" });
    await v2.webhooks.list({ limit: 1 });
    await v2.webhooks.list({ limit: 20 });
    await v1.domains.list({ limit: 25 });
    expect(server.seen).toHaveLength(3);
    for (const [client, limit] of [
      [v2, 0],
      [v2, 21],
      [v1, 26],
      [v2, 2.5],
    ] as const) {
      const error = await failureOf(client.webhooks.list({ limit }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toMatch(
        /^POST \/v(2|1)\/search\/webhooks was not sent: limit must be an integer from 1 to (20|25)\. /,
      );
    }
    expect(server.seen).toHaveLength(3);
  });

  it("stops a listing whose cursor comes back, instead of paging forever (regression)", async () => {
    const looping = await cannedServer({ item_count: 0, items: [], next_cursor: "again" });
    try {
      const c = new ServiceClient({ token: HOOKS_TOKEN, baseUrl: looping.url, rateLimitPerSecond: 0 });
      const error = await rejection<ServiceError>(
        (async () => {
          for await (const _ of c.webhooks.iterate()) {
            // nothing listed
          }
        })(),
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(/came back a second time/);
    } finally {
      await looping.close();
    }
  });
});

/** Webhook and domain listings check their page body with the shared page rule (contract/pages.ts). */
const world = useClientSandbox();

describe("webhook and domain listings", () => {
  it.each([
    ["2.0", 21, "must be an integer from 1 to 20"],
    ["1.4", 26, "must be an integer from 1 to 25"],
    ["2.0", 0, "must be an integer from 1 to 20"],
  ] as const)("API %s refuses limit %d before sending", async (apiVersion, limit, message) => {
    const c = world.current.client({ apiVersion });
    for (const listing of [c.webhooks.list({ limit }), c.domains.list({ limit })]) {
      const error = await rejection<RequestValidationError>(listing);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.fields).toEqual([{ field: "limit", message }]);
    }
    expect(world.current.requests()).toBe(0);
  });

  it("refuses an empty cursor before sending: the first page is asked for with null", async () => {
    const c = world.current.client();
    for (const listing of [c.webhooks.list({ cursor: "" }), c.domains.list({ cursor: "" })]) {
      const error = await rejection<RequestValidationError>(listing);
      expect(error.fields).toEqual([
        { field: "cursor", message: "must not be empty; send null for the first page" },
      ]);
    }
    expect(await c.webhooks.list({ cursor: null })).toEqual({ items: [], item_count: 0, next_cursor: null });
    expect(world.current.requests()).toBe(1);
  });

  it.each([
    ["2.0", 20],
    ["1.4", 25],
  ] as const)(
    "API %s sends the largest page size, and pages through an empty listing",
    async (apiVersion, limit) => {
      const c = world.current.client({ apiVersion });
      expect(await c.webhooks.list({ limit })).toEqual({ items: [], item_count: 0, next_cursor: null });
      const all = [];
      for await (const domain of c.domains.iterate()) all.push(domain);
      expect(all).toEqual([]);
      expect(world.current.requests()).toBe(2);
    },
  );
});
