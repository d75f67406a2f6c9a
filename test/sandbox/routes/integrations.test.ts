import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLAIN_TOKEN } from "../../helpers/fixtures";
import { hookBody, registerDomain, startWorld, type World } from "../../helpers/world";

/** The SDK integration routes (spec 2.8, 4.3, 5) and the inferred ones of not-shown.md. */
let world: World;

beforeEach(async () => {
  world = await startWorld();
});
afterEach(() => world.close());

const api = (...args: Parameters<World["api"]>) => world.api(...args);

const authorize = (body: Record<string, unknown>, token?: string) =>
  api("POST", "/v2/integrations/authorize-user", {
    body: {
      unique_user_id: "user-0001",
      email: "ann@example.com",
      sdk_authorization_request: "sdk-req-1",
      ...body,
    },
    ...(token ? { token } : {}),
  });

const state = async () => (await fetch(`${world.sandbox.url}/_sandbox/state`)).json() as Promise<any>;

describe("authorize-user", () => {
  it("answers a signed request and the username: the organization name joined to the unique_user_id", async () => {
    const res = await authorize({ first_name: "Ann", last_name: "Lee" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      signed_authorization_request: expect.any(String),
      username: "acme-user-0001",
    });
    expect(res.json.signed_authorization_request).not.toBe("sdk-req-1");
    // Any token may call it: the SDK helpers are not webhook features.
    expect((await authorize({}, PLAIN_TOKEN)).status).toBe(200);
  });

  it("fixes first_name and last_name for good on the first call for a unique_user_id", async () => {
    await authorize({ first_name: "Ann", last_name: "Lee" });
    await authorize({ first_name: "Changed", last_name: null, email: "new@example.com" });
    await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "user-0001", email: "x@example.com", first_name: "Other" },
    });
    await authorize({ unique_user_id: "user-0002" });
    await authorize({ unique_user_id: "user-0002", first_name: "Late" });
    const users = (await state()).app_users;
    expect(users).toEqual([
      expect.objectContaining({
        unique_user_id: "user-0001",
        first_name: "Ann",
        last_name: "Lee",
        username: "acme-user-0001",
      }),
      expect.objectContaining({ unique_user_id: "user-0002", first_name: null, last_name: null }),
    ]);
  });

  it.each([
    ["7 characters", { unique_user_id: "u234567" }, "unique_user_id", /8 to 40/],
    ["41 characters", { unique_user_id: "u".repeat(41) }, "unique_user_id", /8 to 40/],
    ["a space", { unique_user_id: "user 0001" }, "unique_user_id", /A-Z a-z 0-9 @ \. \+ _ -/],
    ["a slash", { unique_user_id: "user/0001" }, "unique_user_id", /only/],
    ["no email", { email: undefined }, "email", /./],
    ["a malformed email", { email: "not-an-email" }, "email", /email/],
    [
      "no sdk_authorization_request",
      { sdk_authorization_request: undefined },
      "sdk_authorization_request",
      /./,
    ],
    ["a control character", { first_name: "Ann\u0007" }, "first_name", /control characters/],
  ])("answers 400 to %s, naming %s", async (_name, override, field, message) => {
    const res = await authorize(override);
    expect(res.status).toBe(400);
    const problem = res.json.error.fields.find((f: { field: string }) => f.field === field);
    expect(problem?.message).toMatch(message);
  });

  it("takes every allowed character, at both length limits", async () => {
    for (const id of ["Az09@.+_", "a".repeat(40), "user.name+tag@example_1-2"]) {
      const res = await authorize({ unique_user_id: id });
      expect(res.status, id).toBe(200);
      expect(res.json.username).toBe(`acme-${id}`);
    }
  });

  it("enrols the username so webhooks may filter on it", async () => {
    await registerDomain(world);
    const { username } = (await authorize({})).json;
    const body = hookBody({
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "owner.user.username", value: username },
      ],
    });
    expect((await api("POST", "/v2/webhooks", { body })).status).toBe(200);
  });

  it("is a v2 route: Api-Version 1.4 answers 400", async () => {
    const res = await api("POST", "/v2/integrations/authorize-user", {
      version: "1.4",
      body: { unique_user_id: "user-0001", email: "a@example.com", sdk_authorization_request: "r" },
    });
    expect(res.status).toBe(400);
  });
});

describe("login voucher (inferred route)", () => {
  it("answers a voucher and the username, and accepts other members", async () => {
    const res = await api("POST", "/v2/integrations/app-login-voucher", {
      body: {
        unique_user_id: "user-0003",
        email: "c@example.com",
        first_name: null,
        locale: "ja",
        extra: { a: 1 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ login_voucher: expect.any(String), username: "acme-user-0003" });
    const again = await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "user-0003", email: "c@example.com" },
    });
    expect(again.json.login_voucher).not.toBe(res.json.login_voucher);
  });

  it("applies the unique_user_id rule and refuses control characters in other members too", async () => {
    const short = await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "short", email: "c@example.com" },
    });
    expect(short.status).toBe(400);
    expect(short.json.error.fields[0].field).toBe("unique_user_id");
    const extra = await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "user-0003", email: "c@example.com", note: "a\r\nb" },
    });
    expect(extra.status).toBe(400);
    expect(extra.json.error.fields[0]).toEqual({
      field: "note",
      message: expect.stringMatching(/control characters/),
    });
  });

  it("keeps vouchers out of the admin state", async () => {
    const res = await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "user-0003", email: "c@example.com" },
    });
    expect(JSON.stringify(await state())).not.toContain(res.json.login_voucher);
  });
});

describe("authentication config (inferred route)", () => {
  it("answers the brand and material options with integer iat and exp", async () => {
    const res = await api("POST", "/v2/config/authentications");
    expect(res.status).toBe(200);
    expect(res.json.config.brands.length).toBeGreaterThan(0);
    expect(res.json.config.materials.length).toBeGreaterThan(0);
    expect(res.json.config.brands[0]).toEqual({ id: expect.any(String), display: expect.any(String) });
    expect(Number.isInteger(res.json.iat)).toBe(true);
    expect(Number.isInteger(res.json.exp)).toBe(true);
    expect(res.json.exp).toBeGreaterThan(res.json.iat);
    expect((await api("POST", "/v2/config/authentications", { body: {} })).status).toBe(200);
  });
});

describe("supported brands (inferred route)", () => {
  it("answers {categories}", async () => {
    const res = await api("POST", "/v2/catalog/brands", { body: {} });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json.categories)).toBe(true);
    expect(res.json.categories.length).toBeGreaterThan(0);
  });

  it("answers 503 with Retry-After while the seed's brandsUnavailable setting is on", async () => {
    await world.close();
    world = await startWorld({ brandsUnavailable: true });
    const res = await api("POST", "/v2/catalog/brands");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.json.error.message).toMatch(/temporarily unavailable; retry/);
  });
});
