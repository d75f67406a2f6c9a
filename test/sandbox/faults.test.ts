import { describe, expect, it } from "vitest";
import { hookBody, useClockedWorld } from "../helpers/world";

/** Faults armed through POST /_sandbox/faults or addFault, and how they fire. */
const world = useClockedWorld();
const { api, registerDomain } = world;

describe("faults", () => {
  it("answers a chosen status for the next N matching requests", async () => {
    world.current.sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api("GET", "/v1/health")).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it("applies a request, then drops the connection", async () => {
    await registerDomain();
    await fetch(`${world.current.sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/v2/webhooks", drop: true }),
    });
    await expect(api("POST", "/v2/webhooks", { body: hookBody() })).rejects.toThrow();
    const listed = await api("POST", "/v2/search/webhooks", { body: {} });
    expect(listed.json.items).toHaveLength(1);
  });

  it("applies a request, then answers a chosen status anyway", async () => {
    await registerDomain();
    await fetch(`${world.current.sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/v2/webhooks", status: 503, apply: true }),
    });
    expect((await api("POST", "/v2/webhooks", { body: hookBody() })).status).toBe(503);
    expect((await api("POST", "/v2/search/webhooks", { body: {} })).json.items).toHaveLength(1);
    const refused = await fetch(`${world.current.sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/v2/webhooks", apply: true }),
    });
    expect(refused.status).toBe(400);
  });

  it("holds a request for a delay before handling it", async () => {
    world.current.sandbox.addFault({ method: "GET", path: "/v1/*", delayMs: 50 });
    const started = performance.now();
    expect((await api("GET", "/v1/health")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});

describe("fault paths (regression: a route template was accepted with 200 and never fired)", () => {
  const arm = (fault: object) =>
    fetch(`${world.current.sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fault),
    });

  it.each([
    ["a route template", "GET", "/v2/webhooks/{webhook_uuid}"],
    ["a path no route has", "POST", "/v2/webhook"],
    ["a route of another method", "GET", "/v2/search/webhooks"],
    ["a prefix no route starts with", "GET", "/v3/*"],
  ])("refuses %s with 400, naming the path syntax", async (_what, method, path) => {
    const refused = await arm({ method, path, status: 503 });
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { message: string; fields: { field: string }[] } };
    expect(error.fields.map((f) => f.field)).toEqual(["path"]);
    expect(error.message).toContain("with each {parameter} of the route filled in");
  });

  it("arms a filled-in path and a prefix, which then fire", async () => {
    const hook = (await api("GET", "/v2/webhooks/0f0e0d0c-0000-4000-8000-000000000000")).status;
    expect(
      (await arm({ method: "GET", path: "/v2/webhooks/0f0e0d0c-0000-4000-8000-000000000000", status: 502 }))
        .status,
    ).toBe(200);
    expect((await arm({ method: "POST", path: "/v2/search/web*", status: 504 })).status).toBe(200);
    expect((await api("GET", "/v2/webhooks/0f0e0d0c-0000-4000-8000-000000000000")).status).toBe(502);
    expect((await api("POST", "/v2/search/webhooks", { body: {} })).status).toBe(504);
    expect(hook).not.toBe(502);
  });
});

describe("addFault (regression: it skipped the checks POST /_sandbox/faults makes)", () => {
  it("refuses an impossible fault instead of arming an inert one", () => {
    expect(() =>
      world.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", apply: true }),
    ).toThrow(/apply needs a status/);
    expect(() =>
      world.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503, drop: true }),
    ).toThrow(/status and drop exclude each other/);
  });

  it("arms a fault for one request when count is given as undefined", async () => {
    world.current.sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: undefined });
    expect((await api("GET", "/v1/health")).status).toBe(503);
    expect((await api("GET", "/v1/health")).status).toBe(200);
  });
});
