import { describe, expect, it } from "vitest";
import { createSandbox } from "../../sandbox/index";

/** The sandbox as a mountable fetch handler (issue 12). */
const headers = { authorization: "Token sandbox-demo-token", "api-version": "2.0" };

describe("createSandbox", () => {
  it("answers the API through its fetch handler, without listening anywhere", async () => {
    const app = createSandbox({ settings: { rateLimitPerSecond: 0 } });
    const parent = app.upsertSession({ organization: "demo", kind: "fingerprint" }).service_id;
    const child = app.upsertSession({
      organization: "demo",
      kind: "fingerprint",
      item: { activity: { mode: "compare" }, fingerprint_parent: { service_id: parent } },
    }).service_id;
    const res = await app.fetch(new Request(`http://mounted.test/v2/fingerprints/${child}`, { headers }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    // Absolute URLs in answers follow the origin the request came in on.
    expect(body.item.fingerprint_parent.url).toBe(`http://mounted.test/v2/fingerprints/${parent}`);
    expect(app.requests().map((r) => r.route)).toEqual(["/v2/fingerprints/{service_id}"]);
    const unknown = await app.fetch(new Request("http://mounted.test/v9/nothing", { headers }));
    expect(unknown.status).toBe(404);
    app.stop();
  });

  it("refuses a drop fault loudly when no Node server owns the connection", async () => {
    const app = createSandbox();
    app.addFault({ method: "GET", path: "/v1/health", drop: true });
    const res = await app.fetch(
      new Request("http://mounted.test/v1/health", { headers: { ...headers, "api-version": "1.4" } }),
    );
    expect(res.status).toBe(500);
    expect(((await res.json()) as any).error.message).toMatch(/drop fault needs/);
  });
});
