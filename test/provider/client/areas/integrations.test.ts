import { describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  ConfigurationError,
  RequestValidationError,
  UnavailableError,
} from "../../../../provider/client/index";
import { ACME_TOKEN, rejection, useClientSandbox } from "../../../helpers/client-sandbox";

/** The SDK integration methods of ServiceClient (spec 2.8, 4.3, 5; not-shown.md) against the sandbox. */
const world = useClientSandbox();

const AUTHORIZE = "/v2/integrations/authorize-user";
const VOUCHER = "/v2/integrations/app-login-voucher";
const BRANDS = "/v2/catalog/brands";

const user = (more: Record<string, unknown> = {}) => ({
  unique_user_id: "user-0001",
  email: "ann@example.com",
  ...more,
});
const authorization = (more: Record<string, unknown> = {}) => ({
  ...user(more),
  sdk_authorization_request: "sdk-request-1",
  ...more,
});

describe("authorizeUser", () => {
  it.each(["2.0", "1.4"] as const)(
    "answers the signed request and the username (a v2 route, from a %s client too)",
    async (apiVersion) => {
      const answer = await world.current
        .client({ apiVersion })
        .integrations.authorizeUser(authorization({ first_name: "Ann" }));
      expect(answer).toEqual({
        signed_authorization_request: expect.any(String),
        username: "acme-user-0001",
      });
      expect(answer.signed_authorization_request).not.toBe("sdk-request-1");
      // A credential: no message repeats it.
      const message = new ConfigurationError(`got ${answer.signed_authorization_request}`).message;
      expect(message).not.toContain(answer.signed_authorization_request);
      expect(world.current.requests(AUTHORIZE)).toBe(1);
    },
  );

  it.each([
    [
      "7 characters",
      { unique_user_id: "u234567" },
      "unique_user_id",
      /unique_user_id must be 8 to 40 characters/,
    ],
    ["41 characters", { unique_user_id: "u".repeat(41) }, "unique_user_id", /must be 8 to 40 characters/],
    [
      "a space",
      { unique_user_id: "user 0001" },
      "unique_user_id",
      /may contain only A-Z a-z 0-9 @ \. \+ _ -/,
    ],
    ["a slash", { unique_user_id: "user/0001" }, "unique_user_id", /may contain only/],
    ["a malformed email", { email: "not-an-email" }, "email", /email must be an email address/],
    [
      "an empty SDK request",
      { sdk_authorization_request: "" },
      "sdk_authorization_request",
      /must not be empty/,
    ],
    ["a control character in a name", { last_name: "Lee\u0007" }, "last_name", /control characters/],
  ])("refuses %s before sending, naming %s", async (_name, override, field, message) => {
    const error = await rejection<RequestValidationError>(
      world.current.client().integrations.authorizeUser(authorization(override)),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.fields.map((f) => f.field)).toEqual([field]);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(`POST ${AUTHORIZE} was not sent`);
    expect(world.current.requests()).toBe(0);
  });

  it("accepts the boundaries of unique_user_id: 8 and 40 characters of every allowed kind", async () => {
    const c = world.current.client();
    await c.integrations.authorizeUser(authorization({ unique_user_id: "aZ09@.+_" }));
    await c.integrations.authorizeUser(authorization({ unique_user_id: "x".repeat(40) }));
    expect(world.current.requests(AUTHORIZE)).toBe(2);
  });

  it("raises AmbiguousRequestError when the answer is lost, and never sends it again", async () => {
    world.current.sandbox.addFault({ method: "POST", path: AUTHORIZE, drop: true });
    const error = await rejection<AmbiguousRequestError>(
      world.current.client().integrations.authorizeUser(authorization()),
    );
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/outcome is unknown/);
    expect(world.current.requests(AUTHORIZE)).toBe(1);
  });

  it("raises AmbiguousRequestError on a 5xx, which may have been applied, without retrying", async () => {
    world.current.sandbox.addFault({ method: "POST", path: AUTHORIZE, status: 503, apply: true });
    const error = await rejection<AmbiguousRequestError>(
      world.current.client().integrations.authorizeUser(authorization()),
    );
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.status).toBe(503);
    expect(world.current.requests(AUTHORIZE)).toBe(1);
  });
});

describe("createLoginVoucher", () => {
  it("answers a voucher and the username, and keeps the voucher out of every message", async () => {
    const voucher = await world.current.client().integrations.createLoginVoucher(user({ first_name: null }));
    expect(voucher).toEqual({ login_voucher: expect.any(String), username: "acme-user-0001" });
    expect(new ConfigurationError(`it was ${voucher.login_voucher}`).message).not.toContain(
      voucher.login_voucher,
    );
  });

  it("refuses a bad unique_user_id before sending", async () => {
    const error = await rejection<RequestValidationError>(
      world.current.client().integrations.createLoginVoucher(user({ unique_user_id: "short" })),
    );
    expect(error.fields[0]).toEqual({ field: "unique_user_id", message: "must be 8 to 40 characters" });
    expect(world.current.requests()).toBe(0);
  });

  it("raises AmbiguousRequestError when the answer is lost, and never sends it again", async () => {
    world.current.sandbox.addFault({ method: "POST", path: VOUCHER, drop: true });
    await expect(world.current.client().integrations.createLoginVoucher(user())).rejects.toBeInstanceOf(
      AmbiguousRequestError,
    );
    expect(world.current.requests(VOUCHER)).toBe(1);
  });
});

describe("authenticationConfig", () => {
  it("answers the config with iat and exp, in the client's language", async () => {
    const { config, iat, exp } = await world.current
      .client({ acceptLanguage: "ja" })
      .integrations.authenticationConfig();
    expect(Number.isInteger(iat) && exp > iat).toBe(true);
    expect(config.brands).toEqual(
      expect.arrayContaining([{ id: "sandbox-brand", display: "サンドボックスブランド" }]),
    );
  });

  it("is retried after a lost answer: it only reads", async () => {
    world.current.sandbox.addFault({ method: "POST", path: "/v2/config/authentications", drop: true });
    const { config } = await world.current.client().integrations.authenticationConfig();
    expect(config).toHaveProperty("materials");
    expect(world.current.requests("/v2/config/authentications")).toBe(2);
  });
});

describe("supportedBrands", () => {
  it("answers the categories", async () => {
    const { categories } = await world.current.client({ token: ACME_TOKEN }).integrations.supportedBrands();
    expect(categories).toEqual(expect.arrayContaining([expect.objectContaining({ id: "luxury" })]));
  });

  it("retries a 503 within the budget and answers once the service is back", async () => {
    world.current.sandbox.addFault({ method: "POST", path: BRANDS, status: 503, count: 2 });
    const { categories } = await world.current.client().integrations.supportedBrands();
    expect(categories.length).toBeGreaterThan(0);
    expect(world.current.requests(BRANDS)).toBe(3);
    expect(world.current.clientClock.slept).toHaveLength(2);
  });
});

describe("supportedBrands while the seed makes it unavailable", () => {
  const unavailable = useClientSandbox({ settings: { brandsUnavailable: true } });

  it("raises UnavailableError once the attempts are spent", async () => {
    const error = await rejection(unavailable.current.client().integrations.supportedBrands());
    expect(error).toBeInstanceOf(UnavailableError);
    expect(unavailable.current.requests(BRANDS)).toBe(6);
  });
});
