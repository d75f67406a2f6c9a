import { describe, expect, it } from "vitest";
import { ServiceClient } from "../../provider/client/index";
import { HOOKS_TOKEN } from "../helpers/fixtures";
import { usePlainSandbox } from "../helpers/plain-sandbox";

/**
 * Regression (issue 18, item 8): the sandbox refuses a request in field-named sentences, never in zod's
 * wording ("Invalid option: expected one of …", "(body) Invalid input: expected object, received array").
 */
const plain = usePlainSandbox();

describe("readable sandbox errors", () => {
  it("names an enum's values in a sentence", async () => {
    const response = await plain.api("POST", "/_sandbox/faults", {
      body: { method: "PUT", path: "/v1/health" },
    });
    expect(response.status).toBe(400);
    expect(response.json.error.message).toBe(
      'the request has invalid parameters (method must be one of "GET", "POST"): correct them and send it again',
    );
  });

  it("says what the body must be when it is an array", async () => {
    const response = await plain.api("POST", "/v2/webhooks", { body: [] });
    expect(response.json.error.message).toBe(
      "the request has invalid parameters ((body) must be an object, not an array): correct them and send it again",
    );
    expect(response.json.error.fields).toEqual([
      { field: "(body)", message: "must be an object, not an array" },
    ]);
  });

  it("says which members are missing", async () => {
    const response = await plain.api("POST", "/v2/webhooks", { body: {} });
    expect(response.json.error.message).toBe(
      "the request has invalid parameters (endpoint is required; secret_key is required; filters is required): correct them and send it again",
    );
  });

  /** The fields a fault body is refused for. */
  const faultFields = async (body: Record<string, unknown>) => {
    const response = await plain.api("POST", "/_sandbox/faults", { body: { method: "GET", ...body } });
    expect(response.status).toBe(400);
    return response.json.error.fields;
  };

  it("words a bound by its direction, whether it is included, and the value's origin", async () => {
    expect(
      await faultFields({ path: "/v1/health", count: 0, status: 600, retryAfter: -1, delayMs: 1.5 }),
    ).toEqual([
      { field: "count", message: "must be greater than 0" },
      { field: "status", message: "must be at most 599" },
      { field: "retryAfter", message: "must be at least 0" },
      { field: "delayMs", message: "must be a whole number" },
    ]);
    expect(await faultFields({ path: "/v1/health", status: 399, delayMs: 60_001 })).toEqual([
      { field: "status", message: "must be at least 400" },
      { field: "delayMs", message: "must be at most 60000" },
    ]);
    expect(() => plain.sandbox.upsertSession({ organization: "", kind: "authentication" })).toThrow(
      "the request has invalid parameters (organization must not be empty): correct them and send it again",
    );
  });

  it("says what a value must be and what it is instead", async () => {
    expect(
      await faultFields({ path: "/v1/health", status: "x", count: null, apply: [], retryAfter: {}, drop: 1 }),
    ).toEqual([
      { field: "count", message: "must be a number, not null" },
      { field: "status", message: "must be a number, not a string" },
      { field: "apply", message: "must be true or false, not an array" },
      { field: "retryAfter", message: "must be a number, not an object" },
      { field: "drop", message: "must be true or false, not a number" },
    ]);
    const search = await plain.api("POST", "/v2/search/authentications", { body: { filters: {} } });
    expect(search.json.error.fields).toEqual([
      { field: "filters", message: "must be an array, not an object" },
    ]);
    const refused = (input: Record<string, unknown>) => () =>
      plain.sandbox.upsertSession({ organization: "acme", kind: "authentication", ...input } as never);
    // Regressions: a boolean read "not true or false", and a list of members "must be record".
    expect(refused({ organization: true })).toThrow("(organization must be a string, not a boolean)");
    expect(refused({ item: [] })).toThrow("(item must be an object, not an array)");
    expect(refused({ user: () => "acme-alice" })).toThrow("(user must be a string, not a function)");
  });

  it("states the rule of a fault path, not the name of a zod format (regression: 'must be a valid starts_with')", async () => {
    expect(await faultFields({ path: "v1/health", drop: true })).toEqual([
      { field: "path", message: "must start with /" },
      { field: "path", message: expect.stringMatching(/^no GET route of the API matches v1\/health/) },
    ]);
  });

  it("does the same for the programmatic controls", () => {
    expect(() => plain.sandbox.addFault({ method: "PUT" as "GET", path: "/v1/health" })).toThrow(
      'the request has invalid parameters (method must be one of "GET", "POST"): correct them and send it again',
    );
    expect(() =>
      plain.sandbox.upsertSession({ organization: "acme", kind: "other" as "authentication" }),
    ).toThrow(
      'the request has invalid parameters (kind must be one of "authentication", "fingerprint"): correct them and send it again',
    );
  });

  it("matches the sentences the client gives before sending", async () => {
    const client = new ServiceClient({
      token: HOOKS_TOKEN,
      baseUrl: plain.sandbox.url,
      rateLimitPerSecond: 0,
    });
    await expect(client.integrations.authorizeUser({} as never)).rejects.toThrow(
      "unique_user_id is required; email is required",
    );
    await expect(client.authentications.list({ filters: [{ key: 5 }] } as never)).rejects.toThrow(
      "filters[0].key must be a string, not a number",
    );
  });
});
