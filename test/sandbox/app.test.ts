import { describe, expect, it } from "vitest";
import { HOOKS_TOKEN, PLAIN_TOKEN } from "../helpers/fixtures";
import { hookBody, useClockedWorld } from "../helpers/world";

/** The checks every API request passes (spec 1, 4.1) and what every answer carries. */
const world = useClockedWorld();
const { api, registerDomain } = world;

describe("auth and versions", () => {
  it("answers 401 to a missing or unknown token", async () => {
    expect((await api("GET", "/v1/health", { token: null })).status).toBe(401);
    expect((await api("GET", "/v1/health", { token: "nope" })).status).toBe(401);
    expect((await api("GET", "/v1/health")).json).toEqual({ status: "ok" });
  });

  it("answers 400 to a missing or wrong Api-Version", async () => {
    expect((await api("GET", "/v1/health", { version: null })).status).toBe(400);
    expect((await api("GET", "/v1/health", { version: "2.0" })).status).toBe(400);
    expect((await api("POST", "/v2/search/domains", { version: "1.4", body: {} })).status).toBe(400);
  });

  it("takes 1.3 for webhook creation on /v1 but 1.4 only elsewhere", async () => {
    await registerDomain();
    expect((await api("POST", "/v1/webhooks", { version: "1.3", body: hookBody() })).status).toBe(200);
    expect((await api("POST", "/v1/search/webhooks", { version: "1.3", body: {} })).status).toBe(400);
  });

  it("refuses webhook and domain operations to a token without webhooks, saying so", async () => {
    const res = await api("POST", "/v2/search/webhooks", { token: PLAIN_TOKEN, body: {} });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.json)).toMatch(/webhooks enabled/);
    expect((await api("GET", "/v1/health", { token: PLAIN_TOKEN })).status).toBe(200);
  });

  it("answers 400 to malformed JSON", async () => {
    expect((await api("POST", "/v2/webhooks", { rawBody: "{not json" })).status).toBe(400);
    expect((await api("POST", "/v2/search/domains", { rawBody: "[" })).status).toBe(400);
  });

  it("answers 404 naming an unknown route", async () => {
    const res = await api("GET", "/v2/nothing/here");
    expect(res.status).toBe(404);
    expect(res.json.error.message).toContain("GET /v2/nothing/here");
  });

  it("answers 405 with Allow to a route's path asked with another method", async () => {
    const res = await api("DELETE", "/v2/webhooks/9c1e0000-0000-4000-8000-000000000000");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.json.error.message).toMatch(/^\/v2\/webhooks\/\{webhook_uuid\} takes GET, not DELETE/);
    expect((await api("GET", "/v2/search/webhooks")).headers.get("allow")).toBe("POST");
    // HEAD is GET without a body, as HTTP has it.
    expect((await api("HEAD", "/v1/health")).status).toBe(200);
  });
});

describe("answers", () => {
  it("sends the Date of its own clock", async () => {
    const response = await fetch(`${world.current.sandbox.url}/v1/health`, {
      headers: { authorization: `Token ${HOOKS_TOKEN}`, "api-version": "1.4" },
    });
    expect(Date.parse(response.headers.get("date")!)).toBe(Math.floor(world.clock.now() / 1000) * 1000);
  });
});
