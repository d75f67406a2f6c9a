import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../sandbox/index";
import { OTHER_TOKEN } from "../helpers/fixtures";
import { hookBody, registerDomain, startWorld, type World } from "../helpers/world";

/** Session reads (spec 2.2–2.4, 4.2, 4.3) through plain HTTP. */
let world: World;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock();
  world = await startWorld({}, { clock });
});
afterEach(() => world.close());

const api = (...args: Parameters<World["api"]>) => world.api(...args);

/** Creates a session one second after the previous one, so that "newest first" is well defined. */
function session(
  kind: "authentication" | "fingerprint",
  item: Record<string, unknown> = {},
  organization = "acme",
) {
  clock.advance(1000);
  return world.sandbox.upsertSession({ organization, kind, item }).service_id;
}

const ids = (res: { json: { items: { service_id: string }[] } }) => res.json.items.map((i) => i.service_id);

describe("get and lookup", () => {
  it("answers {item} for the caller's own session and 403 alike for an unknown or foreign one", async () => {
    const mine = session("authentication");
    const theirs = session("authentication", {}, "globex");
    const got = await api("GET", `/v2/authentications/${mine}`);
    expect(got.status).toBe(200);
    expect(got.json.item.service_id).toBe(mine);
    expect(got.json.warnings).toBeUndefined();
    for (const path of [
      `/v2/authentications/${theirs}`,
      "/v2/authentications/unknown-id",
      `/v1/authentications/${theirs}`,
    ]) {
      expect((await api("GET", path)).status, path).toBe(403);
    }
    expect((await api("GET", `/v2/fingerprints/${mine}`)).status).toBe(403);
    expect((await api("GET", `/v2/authentications/${theirs}`, { token: OTHER_TOKEN })).status).toBe(200);
  });

  it("carries the v2 status additions on v2 only", async () => {
    const id = session("authentication", { status: { retake: { needed: false }, flag_message: "m" } });
    const v2 = (await api("GET", `/v2/authentications/${id}`)).json.item.status;
    expect(Object.keys(v2)).toEqual(
      expect.arrayContaining(["flag_reason_id", "flag_reason_display", "flag_message", "retake"]),
    );
    const v1 = (await api("GET", `/v1/authentications/${id}`)).json.item.status;
    for (const key of ["flag_reason_id", "flag_reason_display", "flag_message", "retake"])
      expect(v1).not.toHaveProperty(key);
    expect(v1.result.id).toBe("authentic");
  });

  it("gives lightbox authentications the sneaker fields and compare fingerprints a match result", async () => {
    const sneaker = session("authentication", { activity: { form_factor: "lightbox" } });
    const fields = (await api("GET", `/v2/authentications/${sneaker}`)).json.item.text_fields;
    expect(fields).toHaveProperty("style_code");
    expect(fields).toHaveProperty("us_size");
    const parent = session("fingerprint");
    const compare = session("fingerprint", {
      activity: { mode: "compare" },
      fingerprint_parent: { service_id: parent },
    });
    expect((await api("GET", `/v2/fingerprints/${parent}`)).json.item.status.result.id).toBe("registered");
    expect((await api("GET", `/v2/fingerprints/${compare}`)).json.item.status.result.id).toBe("match");
  });

  it("looks up by customer item id: v1.4 the first final result, else the latest; v2 the latest", async () => {
    const sku = { text_fields: { customer_item_id: "SKU-9" } };
    const firstFinal = session("authentication", sku);
    session("authentication", { ...sku, status: { result: { final: true } } });
    const latest = session("authentication", { ...sku, status: { result: { final: false } } });
    expect((await api("GET", "/v1/lookup/authentications/SKU-9")).json.item.service_id).toBe(firstFinal);
    expect((await api("GET", "/v2/lookup/authentications/SKU-9")).json.item.service_id).toBe(latest);
    const pending = { text_fields: { customer_item_id: "SKU-10" }, status: { result: { final: false } } };
    session("authentication", pending);
    const newest = session("authentication", pending);
    expect((await api("GET", "/v1/lookup/authentications/SKU-10")).json.item.service_id).toBe(newest);
    expect((await api("GET", "/v1/lookup/authentications/SKU-404")).status).toBe(403);
    expect((await api("GET", "/v1/lookup/authentications/SKU-9", { token: OTHER_TOKEN })).status).toBe(403);
  });
});

describe("fingerprint_parent (regression: search returned the stored parent, leaking another organization's session id)", () => {
  let parent: string;
  let foreignParent: string;
  let child: string;
  let orphan: string;
  beforeEach(() => {
    parent = session("fingerprint", { text_fields: { customer_item_id: "PARENT-1" } });
    foreignParent = session("fingerprint", { text_fields: { customer_item_id: "THEIRS-1" } }, "globex");
    child = session("fingerprint", {
      activity: { mode: "compare" },
      fingerprint_parent: { service_id: parent },
    });
    orphan = session("fingerprint", {
      activity: { mode: "compare" },
      fingerprint_parent: { service_id: foreignParent },
    });
  });

  it("GET shows an owned parent's full member set, with its GET address from the caller's generation", async () => {
    for (const [prefix, route] of [
      ["/v2", "/v2/fingerprints/"],
      ["/v1", "/v1/fingerprints/"],
    ] as const) {
      const res = await api("GET", `${prefix}/fingerprints/${child}`);
      expect(res.json.warnings).toBeUndefined();
      expect(res.json.item.fingerprint_parent).toEqual({
        activity: { form_factor: "microscopic", mode: "register", name: "fingerprint" },
        service_id: parent,
        text_fields: { customer_item_id: "PARENT-1" },
        url: `${world.sandbox.url}${route}${parent}`,
      });
      expect(
        (await api("GET", new URL(res.json.item.fingerprint_parent.url).pathname)).json.item.service_id,
      ).toBe(parent);
    }
  });

  it("GET shows {} and the warning for a parent the caller does not own", async () => {
    const res = await api("GET", `/v2/fingerprints/${orphan}`);
    expect(res.status).toBe(200);
    expect(res.json.item.fingerprint_parent).toEqual({});
    expect(res.json.warnings).toEqual([
      expect.objectContaining({ code: "fingerprint_parent_not_authorized", message: expect.any(String) }),
    ]);
    expect(JSON.stringify(res.json)).not.toContain(foreignParent);
  });

  it("search renders every parent exactly as GET does, and never shows the foreign parent's id", async () => {
    for (const path of ["/v2/search/fingerprints", "/v1/search/fingerprints"]) {
      const prefix = path.slice(0, 3);
      const res = await api("POST", path, { body: {} });
      expect(JSON.stringify(res.json), path).not.toContain(foreignParent);
      for (const id of [child, orphan, parent]) {
        const got = await api("GET", `${prefix}/fingerprints/${id}`);
        const listed = res.json.items.find((i: { service_id: string }) => i.service_id === id);
        expect(listed, `${path} ${id}`).toEqual(got.json.item);
      }
      expect(res.json.warnings).toEqual([
        expect.objectContaining({ code: "fingerprint_parent_not_authorized", service_id: orphan }),
      ]);
    }
  });

  it("register items carry no fingerprint_parent, even when one was stored", async () => {
    const register = session("fingerprint", { fingerprint_parent: { service_id: parent } });
    expect((await api("GET", `/v2/fingerprints/${register}`)).json.item).not.toHaveProperty(
      "fingerprint_parent",
    );
    const listed = (await api("POST", "/v2/search/fingerprints", { body: {} })).json.items;
    expect(listed.find((i: { service_id: string }) => i.service_id === parent)).not.toHaveProperty(
      "fingerprint_parent",
    );
  });

  it("the fingerprint_parent.customer_item_id filter matches (regression: it was accepted and never matched)", async () => {
    const filter = (value: string, text_fields?: string) => ({
      body: {
        filters: [
          { key: "fingerprint_parent.customer_item_id", value, ...(text_fields ? { text_fields } : {}) },
        ],
      },
    });
    expect(ids(await api("POST", "/v1/search/fingerprints", filter("PARENT-1")))).toEqual([child]);
    expect(ids(await api("POST", "/v2/search/fingerprints", filter("parent 1")))).toEqual([child]);
    expect(ids(await api("POST", "/v2/search/fingerprints", filter("parent 1", "verbatim")))).toEqual([]);
    // A parent the caller no longer owns is {} to it, so its customer item id matches nothing.
    expect(ids(await api("POST", "/v2/search/fingerprints", filter("THEIRS-1")))).toEqual([]);
  });

  it("the fingerprint_parent.service_id filter matches owned parents only", async () => {
    const by = (value: string) => ({ body: { filters: [{ key: "fingerprint_parent.service_id", value }] } });
    expect(ids(await api("POST", "/v1/search/fingerprints", by(parent)))).toEqual([child]);
    expect(ids(await api("POST", "/v1/search/fingerprints", by(foreignParent)))).toEqual([]);
  });
});

describe("search", () => {
  it("answers the items envelope newest first, or the service_ids envelope", async () => {
    const a = session("authentication");
    const b = session("authentication");
    session("fingerprint");
    session("authentication", {}, "globex");
    const items = await api("POST", "/v2/search/authentications", { body: {} });
    expect(items.json).toEqual({
      item_count: 2,
      items: [expect.any(Object), expect.any(Object)],
      next_cursor: null,
    });
    expect(ids(items)).toEqual([b, a]);
    const only = await api("POST", "/v1/search/authentications", { body: { return: "service_ids" } });
    expect(only.json).toEqual({ service_id_count: 2, service_ids: [b, a], next_cursor: null });
    expect((await api("POST", "/v1/search/authentications", { body: { return: "everything" } })).status).toBe(
      400,
    );
    expect((await api("POST", "/v1/search/authentications")).json.item_count).toBe(2);
    expect((await api("POST", "/v1/search/authentications", { body: null })).json.item_count).toBe(2);
  });

  it("pages by cursor without skipping or repeating, even when sessions arrive between pages", async () => {
    const made = Array.from({ length: 5 }, () => session("authentication"));
    const first = await api("POST", "/v1/search/authentications", { body: { limit: 2 } });
    expect(first.json.item_count).toBe(2);
    session("authentication"); // newer than every page already read: must not shift the next pages
    const seen = ids(first);
    let cursor: string | null = first.json.next_cursor;
    for (let page = 0; cursor !== null && page < 5; page++) {
      const res = await api("POST", "/v1/search/authentications", { body: { limit: 2, cursor } });
      seen.push(...ids(res));
      cursor = res.json.next_cursor;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual([...made].reverse());
    const bad = await api("POST", "/v1/search/authentications", { body: { cursor: "not-a-cursor" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields[0].field).toBe("cursor");
  });

  it("refuses a cursor issued by another listing", async () => {
    session("authentication");
    await registerDomain(world);
    for (let i = 0; i < 2; i++) await api("POST", "/v2/webhooks", { body: hookBody({ channel: `c${i}` }) });
    const hooks = await api("POST", "/v2/search/webhooks", { body: { limit: 1 } });
    const foreign = await api("POST", "/v2/search/authentications", {
      body: { cursor: hooks.json.next_cursor },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.message).toMatch(/cursor is not one this service issued/);
  });

  it("defaults to 25 a page; v2 caps a larger limit at 25, v1.4 refuses it; both refuse 0", async () => {
    for (let i = 0; i < 27; i++) session("authentication");
    expect((await api("POST", "/v2/search/authentications", { body: {} })).json.item_count).toBe(25);
    expect((await api("POST", "/v1/search/authentications", { body: { limit: null } })).json.item_count).toBe(
      25,
    );
    const capped = await api("POST", "/v2/search/authentications", { body: { limit: 26 } });
    expect(capped.status).toBe(200);
    expect(capped.json.item_count).toBe(25);
    expect(capped.json.next_cursor).not.toBeNull();
    expect((await api("POST", "/v2/search/fingerprints", { body: { limit: 1000 } })).status).toBe(200);
    for (const [path, limit] of [
      ["/v1/search/authentications", 26],
      ["/v1/search/fingerprints", 26],
      ["/v1/search/authentications", 0],
      ["/v2/search/authentications", 0],
      ["/v2/search/authentications", 2.5],
      ["/v2/search/authentications", "10"],
    ] as const) {
      const res = await api("POST", path, { body: { limit } });
      expect(res.status, `${path} ${limit}`).toBe(400);
      expect(res.json.error.fields[0].field).toBe("limit");
    }
  });

  it("filters with value, values and exclude; text fields canonical by default or verbatim", async () => {
    const a = session("authentication", {
      text_fields: { customer_item_id: "AB-12" },
      status: { result: { id: "unidentified" } },
    });
    const b = session("authentication", { text_fields: { customer_item_id: "ab12" } });
    const c = session("authentication", { text_fields: { customer_item_id: "XY-99" } });
    const search = async (filters: unknown[]) =>
      ids(await api("POST", "/v1/search/authentications", { body: { filters } }));
    expect(await search([{ key: "text_fields.customer_item_id", value: "ab 12" }])).toEqual([b, a]);
    expect(
      await search([{ key: "text_fields.customer_item_id", value: "AB-12", text_fields: "verbatim" }]),
    ).toEqual([a]);
    expect(await search([{ key: "text_fields.customer_item_id", values: ["xy99", "nothing"] }])).toEqual([c]);
    expect(await search([{ key: "status.result.id", value: "authentic" }])).toEqual([c, b]);
    expect(await search([{ key: "status.result.id", value: "authentic", exclude: true }])).toEqual([a]);
    // canonical applies to text fields only: an id is compared exactly
    expect(await search([{ key: "status.result.id", value: "AUTHENTIC" }])).toEqual([]);
    expect(
      await search([
        { key: "status.result.id", value: "authentic" },
        { key: "text_fields.customer_item_id", value: "ab12" },
      ]),
    ).toEqual([b]);
  });

  it("takes only the v1.4 filter keys of each search, and any key on v2", async () => {
    const bad = await api("POST", "/v1/search/authentications", {
      body: { filters: [{ key: "activity.mode", value: "compare" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields[0]).toEqual({
      field: "filters[0].key",
      message: expect.stringMatching(/not a authentication search filter/),
    });
    expect(
      (
        await api("POST", "/v1/search/fingerprints", {
          body: { filters: [{ key: "properties.brand.id", value: "x" }] },
        })
      ).status,
    ).toBe(400);
    // Every key spec 4.2 lists for each search, all in one body.
    const listed = {
      authentications: [
        "activity.form_factor",
        "owner.organization.name",
        "owner.user.username",
        "properties.brand.id",
        "properties.material.id",
        "status.flag",
        "status.result.id",
        "text_fields.customer_item_id",
        "text_fields.identifier",
        "text_fields.style_code",
        "text_fields.us_size",
      ],
      fingerprints: [
        "activity.mode",
        "fingerprint_parent.service_id",
        "fingerprint_parent.customer_item_id",
        "owner.organization.name",
        "owner.user.username",
        "status.flag",
        "status.result.id",
        "text_fields.customer_item_id",
      ],
    };
    for (const [search, keys] of Object.entries(listed)) {
      const filters = keys.map((key) => ({ key, value: "x" }));
      const res = await api("POST", `/v1/search/${search}`, { body: { filters } });
      expect([res.status, res.json.error?.fields], search).toEqual([200, undefined]);
    }
    expect(
      (
        await api("POST", "/v2/search/authentications", {
          body: { filters: [{ key: "activity.mode", value: "x" }] },
        })
      ).status,
    ).toBe(200);
  });

  it("needs a properties.brand.id filter beside a text_fields.identifier one", async () => {
    const id = session("authentication", {
      text_fields: { identifier: "SN-1" },
      properties: { brand: { id: "example-maison" } },
    });
    const alone = [{ key: "text_fields.identifier", value: "SN-1" }];
    for (const path of ["/v1/search/authentications", "/v2/search/authentications"]) {
      const res = await api("POST", path, { body: { filters: alone } });
      expect(res.status, path).toBe(400);
      expect(res.json.error.message).toMatch(/properties\.brand\.id/);
      const withBrand = [...alone, { key: "properties.brand.id", value: "example-maison" }];
      expect(ids(await api("POST", path, { body: { filters: withBrand } }))).toEqual([id]);
    }
  });

  it("takes exactly one of value or values on v1.4; v2 takes both and uses value", async () => {
    const id = session("authentication");
    const both = { filters: [{ key: "status.result.id", value: "authentic", values: ["nothing"] }] };
    expect((await api("POST", "/v1/search/authentications", { body: both })).status).toBe(400);
    expect(ids(await api("POST", "/v2/search/authentications", { body: both }))).toEqual([id]);
    for (const filter of [
      { key: "status.result.id" },
      { key: "status.result.id", values: [] },
      { key: "", value: "x" },
    ]) {
      expect((await api("POST", "/v2/search/authentications", { body: { filters: [filter] } })).status).toBe(
        400,
      );
    }
    for (const filter of [
      { key: "status.result.id", value: "x", exclude: "yes" },
      { key: "text_fields.customer_item_id", value: "x", text_fields: "fuzzy" },
    ]) {
      expect((await api("POST", "/v1/search/authentications", { body: { filters: [filter] } })).status).toBe(
        400,
      );
    }
  });

  it("narrows by range (inclusive Unix seconds of the item's timestamp) and refuses start after end", async () => {
    const early = session("authentication");
    const at = clock.now() / 1000;
    const late = session("authentication");
    const search = async (range: unknown) => api("POST", "/v1/search/authentications", { body: { range } });
    expect(ids(await search({ start: at, end: at }))).toEqual([early]);
    expect(ids(await search({ start: at + 1 }))).toEqual([late]);
    expect(ids(await search({ start: null, end: at }))).toEqual([early]);
    // Open at its start, a range may end at any time, even before 1970.
    expect(ids(await search({ end: -1 }))).toEqual([]);
    expect(ids(await search(null))).toEqual([late, early]);
    const refused = async (range: unknown) => {
      const res = await search(range);
      expect(res.status).toBe(400);
      return res.json.error.fields;
    };
    expect(await refused({ start: at + 1, end: at })).toEqual([
      { field: "range", message: "start must not be after end" },
    ]);
    expect(await refused({ start: "yesterday", end: at + 0.5 })).toEqual([
      { field: "range.start", message: "must be Unix epoch seconds or null" },
      { field: "range.end", message: "must be whole seconds" },
    ]);
  });

  it("accepts extra members in a v2 search body", async () => {
    session("authentication");
    expect(
      (await api("POST", "/v2/search/authentications", { body: { future_member: { x: 1 } } })).json
        .item_count,
    ).toBe(1);
  });

  it("answers 400 to a body that is not an object", async () => {
    for (const body of [[], "text", 3]) {
      expect((await api("POST", "/v2/search/authentications", { body })).status).toBe(400);
    }
  });
});

describe("sessions through the API", () => {
  it("serves get, lookup and cursor search of sessions to their organization only", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      ids.push(
        world.sandbox.upsertSession({
          organization: "acme",
          kind: "authentication",
          item: { text_fields: { customer_item_id: `SKU-${i}` } },
        }).service_id,
      );
    }
    expect((await api("GET", `/v2/authentications/${ids[0]}`)).json.item.service_id).toBe(ids[0]);
    expect((await api("GET", `/v2/authentications/${ids[0]}`, { token: OTHER_TOKEN })).status).toBe(403);
    expect((await api("GET", "/v1/lookup/authentications/SKU-1")).json.item.service_id).toBe(ids[1]);
    const v1 = await api("GET", `/v1/authentications/${ids[0]}`);
    expect(v1.json.item.status.flag_reason_id).toBeUndefined();
    const first = await api("POST", "/v1/search/authentications", { body: { limit: 2 } });
    expect(first.json.item_count).toBe(2);
    const second = await api("POST", "/v1/search/authentications", {
      body: { limit: 2, cursor: first.json.next_cursor },
    });
    expect(second.json.next_cursor).toBeNull();
    const canonical = await api("POST", "/v1/search/authentications", {
      body: { filters: [{ key: "text_fields.customer_item_id", value: "sku 2" }], return: "service_ids" },
    });
    expect(canonical.json).toEqual({ service_id_count: 1, service_ids: [ids[2]], next_cursor: null });
    const badKey = await api("POST", "/v1/search/authentications", {
      body: { filters: [{ key: "nope", value: "x" }] },
    });
    expect(badKey.status).toBe(400);
  });
});
