import { describe, expect, it } from "vitest";
import {
  type ApiVersion,
  type AuthenticationItem,
  ConfigurationError,
  type ItemSearch,
  NotFoundError,
  RequestValidationError,
  ResponseValidationError,
  type ServiceClient,
} from "../../../../provider/client/index";
import {
  CAMERA_TOKEN,
  cannedServer,
  GLOBEX_TOKEN,
  rejection,
  useClientSandbox,
} from "../../../helpers/client-sandbox";
import { REQUIRED_MEMBERS, V2_STATUS_MEMBERS, withoutMember } from "../../../helpers/item-members";

/** The session reads of ServiceClient (spec 2.2 to 2.5, 4.2, 4.3) against the sandbox, in both versions. */
const world = useClientSandbox();
const VERSIONS: readonly ApiVersion[] = ["2.0", "1.4"];
const PREFIX = { "2.0": "/v2", "1.4": "/v1" } as const;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const entry of iterable) all.push(entry);
  return all;
}

describe.each(VERSIONS)("API %s", (version) => {
  const client = (more: Parameters<typeof world.current.client>[0] = {}) =>
    world.current.client({ apiVersion: version, ...more });
  const session = (...args: Parameters<typeof world.current.session>) => world.current.session(...args);

  it("gets an authentication by id through the version's route, and 403 alike for unknown or foreign", async () => {
    const mine = session("authentication", { text_fields: { customer_item_id: "SKU-1" } });
    const theirs = session("authentication", {}, "globex");
    const { item, warnings } = await client().authentications.retrieve(mine);
    expect(item.service_id).toBe(mine);
    expect(item.activity.name).toBe("authentication");
    expect(item.text_fields.customer_item_id).toBe("SKU-1");
    expect(warnings).toEqual([]);
    // The v2 status additions (spec 2.4) are there on v2 only.
    expect("retake" in item.status).toBe(version === "2.0");
    expect(world.current.requests(`${PREFIX[version]}/authentications/{service_id}`)).toBe(1);
    await expect(client().authentications.retrieve(theirs)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client().authentications.retrieve("unknown-id")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("looks an authentication up by customer item id", async () => {
    session("authentication", { text_fields: { customer_item_id: "SKU-7" } });
    const latest = session("authentication", { text_fields: { customer_item_id: "SKU-7" } });
    const { item } = await client().authentications.lookup("SKU-7");
    // v1.4 answers the first final one, v2 the latest (both final here: the sandbox default).
    expect(item.text_fields.customer_item_id).toBe("SKU-7");
    if (version === "2.0") expect(item.service_id).toBe(latest);
    expect(world.current.requests(`${PREFIX[version]}/lookup/authentications/{lookup_value}`)).toBe(1);
    await expect(client().authentications.lookup("SKU-none")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gets a fingerprint, keeping the warning beside a parent another organization owns", async () => {
    const owned = session("fingerprint");
    const foreign = session("fingerprint", {}, "globex");
    const compare = (parent: string) =>
      session("fingerprint", { activity: { mode: "compare" }, fingerprint_parent: { service_id: parent } });
    const whole = await client().fingerprints.retrieve(compare(owned));
    expect(whole.item.fingerprint_parent?.service_id).toBe(owned);
    expect(whole.warnings).toEqual([]);
    const hidden = await client().fingerprints.retrieve(compare(foreign));
    expect(hidden.item.fingerprint_parent).toEqual({});
    expect(hidden.warnings).toEqual([
      expect.objectContaining({ code: "fingerprint_parent_not_authorized", message: expect.any(String) }),
    ]);
    expect((await client().fingerprints.retrieve(owned)).item).not.toHaveProperty("fingerprint_parent");
  });

  it("searches one page at a time, newest first, with the item count and the next cursor", async () => {
    const ids = Array.from({ length: 5 }, () => session("authentication"));
    const first = await client().authentications.list({ limit: 2 });
    expect(first.items.map((i) => i.service_id)).toEqual([ids[4], ids[3]]);
    expect(first.item_count).toBe(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(first.warnings).toEqual([]);
    const second = await client().authentications.list({ limit: 2, cursor: first.next_cursor });
    expect(second.items.map((i) => i.service_id)).toEqual([ids[2], ids[1]]);
    const last = await client().authentications.list({ limit: 2, cursor: second.next_cursor });
    expect(last.items.map((i) => i.service_id)).toEqual([ids[0]]);
    expect(last.next_cursor).toBeNull();
  });

  it("iterates every page item by item, fetching a page only when the previous one is used up", async () => {
    const ids = Array.from({ length: 7 }, () => session("authentication"));
    const route = `${PREFIX[version]}/search/authentications`;
    const iterator = client().authentications.iterate({ limit: 3 })[Symbol.asyncIterator]();
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(((await iterator.next()).value as AuthenticationItem).service_id);
    // Three items read: one page fetched, none ahead and none accumulated.
    expect(world.current.requests(route)).toBe(1);
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) seen.push(r.value.service_id);
    expect(seen).toEqual([...ids].reverse());
    expect(world.current.requests(route)).toBe(3);
  });

  it("iterates fingerprints, and resumes from a cursor", async () => {
    const ids = Array.from({ length: 4 }, () => session("fingerprint"));
    const all = await collect(client().fingerprints.iterate({ limit: 3 }));
    expect(all.map((i) => i.service_id)).toEqual([...ids].reverse());
    const first = await client().fingerprints.list({ limit: 3 });
    const rest = await collect(client().fingerprints.iterate({ limit: 3, cursor: first.next_cursor }));
    expect(rest.map((i) => i.service_id)).toEqual([ids[0]]);
  });

  it("answers ids only with return service_ids, page by page and through the iterators", async () => {
    const ids = Array.from({ length: 3 }, () => session("authentication"));
    const page = await client().authentications.list({ return: "service_ids", limit: 2 });
    expect(page).toEqual({
      service_ids: [ids[2], ids[1]],
      service_id_count: 2,
      next_cursor: expect.any(String),
    });
    expect(await collect(client().authentications.iterate({ return: "service_ids", limit: 2 }))).toEqual(
      [...ids].reverse(),
    );
    const fingerprint = session("fingerprint");
    expect(await collect(client().fingerprints.iterate({ return: "service_ids" }))).toEqual([fingerprint]);
  });

  it("sends filters with value, values, exclude and text_fields, and range", async () => {
    const alice = session("authentication", { text_fields: { customer_item_id: "SKU-A1" } });
    const bob = session("authentication", {
      text_fields: { customer_item_id: "sku-b2" },
      status: { result: { id: "unidentified" } },
    });
    const ids = async (search: ItemSearch) =>
      (await client().authentications.list(search)).items.map((i) => i.service_id);
    const customer = (value: string, more = {}) => ({ key: "text_fields.customer_item_id", value, ...more });
    expect(await ids({ filters: [customer("skua1")] })).toEqual([alice]);
    expect(await ids({ filters: [customer("skua1", { text_fields: "verbatim" })] })).toEqual([]);
    expect(await ids({ filters: [{ key: "status.result.id", values: ["unidentified", "x"] }] })).toEqual([
      bob,
    ]);
    expect(
      await ids({ filters: [{ key: "status.result.id", value: "unidentified", exclude: true }] }),
    ).toEqual([alice]);
    const aliceEpoch = (await client().authentications.retrieve(alice)).item.timestamp.epoch;
    expect(await ids({ range: { start: null, end: Math.floor(aliceEpoch) } })).toEqual([alice]);
  });

  it("refuses before sending: a filter on text_fields.identifier without one on properties.brand.id", async () => {
    const error = await rejection<RequestValidationError>(
      client().authentications.list({ filters: [{ key: "text_fields.identifier", value: "X1" }] }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.fields).toEqual([
      {
        field: "filters",
        message: expect.stringMatching(/text_fields.identifier also needs a filter on properties.brand.id/),
      },
    ]);
    expect(error.message).toMatch(`POST ${PREFIX[version]}/search/authentications was not sent`);
    await client().authentications.list({
      filters: [
        { key: "text_fields.identifier", value: "X1" },
        { key: "properties.brand.id", value: "sandbox-brand" },
      ],
    });
    expect(world.current.requests()).toBe(1);
  });

  it("refuses before sending: control characters in a filter value, a cursor or a session id", async () => {
    const c = client();
    const value = await rejection<RequestValidationError>(
      c.fingerprints.list({ filters: [{ key: "status.flag", value: "a\u0007" }] }),
    );
    expect(value.fields[0]).toEqual({
      field: "filters[0].value",
      message: expect.stringMatching(/control characters/),
    });
    const cursor = await rejection<RequestValidationError>(c.authentications.list({ cursor: "abc\r\nX: 1" }));
    expect(cursor.fields[0]!.field).toBe("cursor");
    const id = await rejection<ConfigurationError>(c.authentications.retrieve("id\nX-Injected: 1"));
    expect(id).toBeInstanceOf(ConfigurationError);
    expect(id.message).toMatch(/service_id must not contain control characters/);
    expect(world.current.requests()).toBe(0);
  });

  it("refuses before sending: a page size below 1 (and above 25 on API 1.4, where v2 caps it)", async () => {
    const zero = await rejection<RequestValidationError>(client().authentications.list({ limit: 0 }));
    expect(zero.fields[0]).toEqual({ field: "limit", message: "must be an integer from 1 to 25" });
    expect(world.current.requests()).toBe(0);
    const above = client().authentications.list({ limit: 26 });
    if (version === "1.4") {
      expect((await rejection<RequestValidationError>(above)).fields[0]!.field).toBe("limit");
      expect(world.current.requests()).toBe(0);
    } else {
      expect((await above).items).toEqual([]);
      expect(world.current.requests()).toBe(1);
    }
  });

  it("tolerates keys the spec does not list, in items and envelopes alike (spec 2.1)", async () => {
    const id = session("authentication");
    const { item } = await world.current.client({ apiVersion: version }).authentications.retrieve(id);
    const server = await cannedServer({
      item_count: 1,
      items: [{ ...item, future_member: { nested: true } }],
      next_cursor: null,
      future_envelope_key: 1,
    });
    try {
      const page = await world.current
        .client({ apiVersion: version, baseUrl: server.url })
        .authentications.list();
      expect(page.items[0]).toMatchObject({ service_id: id, future_member: { nested: true } });
    } finally {
      await server.close();
    }
  });

  /** Runs `check` with a client of a server that answers `answer.body` to every request. */
  async function withAnswer(check: (c: ServiceClient, answer: { body: unknown }) => Promise<void>) {
    const answer = { body: undefined as unknown };
    const server = await cannedServer(() => answer.body);
    try {
      await check(client({ baseUrl: server.url }), answer);
    } finally {
      await server.close();
    }
  }

  /** The message of the ResponseValidationError `call` fails with. */
  async function unreadable(call: Promise<unknown>, why: string): Promise<string> {
    const error = await rejection(call);
    expect(error, why).toBeInstanceOf(ResponseValidationError);
    return error.message;
  }

  it("refuses an item without a member the spec requires, naming the member", async () => {
    const items = {
      authentication: (await client().authentications.retrieve(session("authentication"))).item,
      fingerprint: (await client().fingerprints.retrieve(session("fingerprint"))).item,
    };
    const added = ["timestamp.display", "timestamp.epoch", ...(version === "2.0" ? V2_STATUS_MEMBERS : [])];
    await withAnswer(async (c, answer) => {
      for (const kind of ["authentication", "fingerprint"] as const) {
        const get = () =>
          kind === "authentication" ? c.authentications.retrieve("id") : c.fingerprints.retrieve("id");
        answer.body = { item: items[kind], warnings: [] };
        expect((await get()).item).toEqual(items[kind]);
        for (const path of [...REQUIRED_MEMBERS[kind], ...added]) {
          answer.body = { item: withoutMember(items[kind], path), warnings: [] };
          expect(await unreadable(get(), path)).toContain(`cannot read: item.${path} `);
        }
      }
    });
  });

  it("reads a compare fingerprint's parent whole, or as {} when not shown, and refuses one in between", async () => {
    const parent = session("fingerprint");
    const compare = session("fingerprint", {
      activity: { mode: "compare" },
      fingerprint_parent: { service_id: parent },
    });
    const { item } = await client().fingerprints.retrieve(compare);
    await withAnswer(async (c, answer) => {
      answer.body = { item: { ...item, fingerprint_parent: {} }, warnings: [] };
      expect((await c.fingerprints.retrieve("id")).item.fingerprint_parent).toEqual({});
      const partial = [
        "activity.form_factor",
        "activity.mode",
        "activity.name",
        "text_fields.customer_item_id",
        "url",
      ].map((path) => withoutMember(item, `fingerprint_parent.${path}`));
      for (const broken of [...partial, { ...item, fingerprint_parent: { service_id: parent } }]) {
        answer.body = { item: broken, warnings: [] };
        const message = await unreadable(
          c.fingerprints.retrieve("id"),
          JSON.stringify(broken.fingerprint_parent),
        );
        expect(message).toContain("cannot read: item.fingerprint_parent ");
      }
    });
  });

  it("reads images in their two shapes only, and warnings with a code and a message", async () => {
    const { item } = await client().authentications.retrieve(session("authentication"));
    await withAnswer(async (c, answer) => {
      for (const images of [[{ type: "thumbnail", url: "https://i.example/t" }], { photos: {} }, {}]) {
        answer.body = { item: { ...item, images }, warnings: [] };
        expect((await c.authentications.retrieve("id")).item.images).toEqual(images);
      }
      for (const images of [[{ type: "thumbnail" }], [{ url: "https://i.example/t" }], { photos: "x" }]) {
        answer.body = { item: { ...item, images }, warnings: [] };
        expect(await unreadable(c.authentications.retrieve("id"), JSON.stringify(images))).toContain(
          "cannot read: item.images ",
        );
      }
      answer.body = { item, warnings: [{ code: "fingerprint_parent_not_authorized" }] };
      expect(await unreadable(c.authentications.retrieve("id"), "warning")).toContain(
        "cannot read: warnings.0.message ",
      );
    });
  });

  it("keeps the counts the service gives for a page, and counts the page itself when it gives none", async () => {
    const { item } = await client().authentications.retrieve(session("authentication"));
    await withAnswer(async (c, answer) => {
      answer.body = { item_count: 30, items: [item], next_cursor: "n" };
      expect(await c.authentications.list()).toMatchObject({ item_count: 30, next_cursor: "n" });
      answer.body = { items: [item] };
      expect(await c.authentications.list()).toMatchObject({ item_count: 1, next_cursor: null });
      answer.body = { service_id_count: 30, service_ids: ["a"], next_cursor: null };
      expect(await c.authentications.list({ return: "service_ids" })).toEqual({
        service_id_count: 30,
        service_ids: ["a"],
        next_cursor: null,
      });
    });
  });

  it("stops with ResponseValidationError when a cursor comes back, instead of paging forever", async () => {
    const id = session("authentication");
    const { item } = await world.current.client({ apiVersion: version }).authentications.retrieve(id);
    const server = await cannedServer({ item_count: 1, items: [item], next_cursor: "same" });
    try {
      const c = world.current.client({ apiVersion: version, baseUrl: server.url });
      const error = await rejection(collect(c.authentications.iterate()));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(/cursor "same" came back a second time/);
      expect(server.received()).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe("API 1.4 rules refused before sending", () => {
  const v1 = () => world.current.client({ apiVersion: "1.4" });

  it("a filter key outside the search's list, naming the key and the list", async () => {
    const error = await rejection<RequestValidationError>(
      v1().authentications.list({ filters: [{ key: "activity.mode", value: "compare" }] }),
    );
    expect(error.fields).toEqual([
      {
        field: "filters[0].key",
        message: expect.stringMatching(
          /activity.mode is not a authentication search filter on API 1.4; use one of activity.form_factor/,
        ),
      },
    ]);
    await rejection(v1().fingerprints.list({ filters: [{ key: "properties.brand.id", value: "b" }] }));
    expect(world.current.requests()).toBe(0);
    // API 2.0 does not list its keys, so the same filter is sent.
    await world.current
      .client()
      .authentications.list({ filters: [{ key: "activity.mode", value: "compare" }] });
    expect(world.current.requests()).toBe(1);
  });

  it("both value and values in one filter (API 2.0 takes both and uses value)", async () => {
    const both = { key: "status.result.id", value: "authentic", values: ["unidentified"] };
    const error = await rejection<RequestValidationError>(v1().authentications.list({ filters: [both] }));
    expect(error.fields).toEqual([
      { field: "filters[0]", message: "takes exactly one of value or values on API 1.4" },
    ]);
    const none = await rejection<RequestValidationError>(
      v1().authentications.list({ filters: [{ key: "status.result.id" }] }),
    );
    expect(none.fields[0]!.message).toBe("needs value or values");
    expect(world.current.requests()).toBe(0);
    const id = world.current.session("authentication");
    const v2 = await world.current.client().authentications.list({ filters: [both] });
    expect(v2.items.map((i) => i.service_id)).toEqual([id]);
  });

  it("a text_fields mode other than canonical or verbatim, named by its option", async () => {
    const error = await rejection<RequestValidationError>(
      v1().authentications.list({
        filters: [{ key: "text_fields.customer_item_id", value: "x", text_fields: "fuzzy" as "verbatim" }],
      }),
    );
    expect(error.fields[0]).toEqual({
      field: "filters[0].text_fields",
      message: "must be canonical or verbatim",
    });
    expect(error.message).toMatch("filters[0].text_fields must be canonical or verbatim");
    expect(world.current.requests()).toBe(0);
  });
});

describe("images (spec 2.5)", () => {
  const kinds = ["authentication", "fingerprint"] as const;
  const read = async (
    c: ServiceClient,
    kind: (typeof kinds)[number],
    id: string,
    flags: { include_images?: boolean; return_item_photos?: boolean },
  ) => {
    // GET takes the flags as query parameters, search as body members, each by its spec name.
    const query = {
      include_images: flags.include_images,
      format_options__return_item_photos: flags.return_item_photos,
    };
    const body = {
      include_images: flags.include_images,
      format_options: { return_item_photos: flags.return_item_photos },
    };
    const answer =
      kind === "authentication"
        ? await c.authentications.retrieve(id, query)
        : await c.fingerprints.retrieve(id, query);
    const page =
      kind === "authentication" ? await c.authentications.list(body) : await c.fingerprints.list(body);
    expect(page.items.map((i) => i.service_id)).toEqual([id]);
    return { get: answer.item.images, search: page.items[0]!.images };
  };
  const typed = (images: unknown) =>
    Array.isArray(images) && images.every((i) => /^(thumbnail|high_resolution)$/.test(i.type));
  const photos = (images: unknown) =>
    !Array.isArray(images) && Object.keys(images as object).join() === "photos";

  it.each(kinds)(
    "API 2.0 %s: include_images, return_item_photos, both (include_images wins) and neither",
    async (kind) => {
      const id = world.current.session(kind);
      const c = world.current.client();
      for (const got of Object.values(await read(c, kind, id, { include_images: true })))
        expect(typed(got)).toBe(true);
      for (const got of Object.values(await read(c, kind, id, { return_item_photos: true })))
        expect(photos(got)).toBe(true);
      const both = await read(c, kind, id, { include_images: true, return_item_photos: true });
      for (const got of Object.values(both)) expect(typed(got)).toBe(true);
      expect(await read(c, kind, id, {})).toEqual({ get: undefined, search: undefined });
      expect(await read(c, kind, id, { include_images: false })).toEqual({
        get: undefined,
        search: undefined,
      });
    },
  );

  it("API 2.0: a presign_camera_url token gets the legacy camera object without flags", async () => {
    const id = world.current.session("authentication");
    const { item } = await world.current.client({ token: CAMERA_TOKEN }).authentications.retrieve(id);
    expect(Object.keys(item.images as object)).toEqual(["camera"]);
  });

  it("API 1.4 authentications: return_item_photos through the query flag and the body member", async () => {
    const id = world.current.session("authentication");
    const got = await read(world.current.client({ apiVersion: "1.4" }), "authentication", id, {
      return_item_photos: true,
    });
    expect(photos(got.get) && photos(got.search)).toBe(true);
  });

  it("API 1.4 refuses before sending what it does not read: include_images, and any flag for fingerprints", async () => {
    const v1 = world.current.client({ apiVersion: "1.4" });
    const include = await rejection<RequestValidationError>(
      v1.authentications.retrieve("any-id", { include_images: true }),
    );
    expect(include.fields).toEqual([
      {
        field: "include_images",
        message: expect.stringMatching(
          /not available for authentications on API 1.4 .*reads only format_options__return_item_photos.*apiVersion "2.0"/,
        ),
      },
    ]);
    await rejection(v1.authentications.list({ include_images: true }));
    const fingerprint = await rejection<RequestValidationError>(
      v1.fingerprints.list({ format_options: { return_item_photos: true } }),
    );
    expect(fingerprint.fields[0]).toEqual({
      field: "format_options.return_item_photos",
      message: expect.stringMatching(/not available for fingerprints on API 1.4 .*reads no image flag/),
    });
    await rejection(v1.fingerprints.retrieve("any-id", { format_options__return_item_photos: true }));
    expect(world.current.requests()).toBe(0);
  });
});

describe("organizations", () => {
  it("search shows only the caller's sessions", async () => {
    world.current.session("authentication", {}, "globex");
    const mine = world.current.session("authentication");
    const page = await world.current.client().authentications.list();
    expect(page.items.map((i) => i.service_id)).toEqual([mine]);
    const theirs = await world.current.client({ token: GLOBEX_TOKEN }).authentications.list();
    expect(theirs.items).toHaveLength(1);
  });

  it("search keeps the page's warnings beside its items", async () => {
    const foreign = world.current.session("fingerprint", {}, "globex");
    const compare = world.current.session("fingerprint", {
      activity: { mode: "compare" },
      fingerprint_parent: { service_id: foreign },
    });
    for (const version of ["2.0", "1.4"] as const) {
      const page = await world.current.client({ apiVersion: version }).fingerprints.list();
      expect(page.items.map((i) => [i.service_id, i.fingerprint_parent])).toEqual([[compare, {}]]);
      expect(page.warnings).toEqual([expect.objectContaining({ code: "fingerprint_parent_not_authorized" })]);
    }
  });
});
