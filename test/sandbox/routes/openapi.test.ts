import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/index";

/** GET /openapi.json: the package's OpenAPI document, naming the sandbox that served it as its server. */
const shipped = JSON.parse(readFileSync(join(__dirname, "../../../openapi.json"), "utf8"));

describe("GET /openapi.json", () => {
  it("serves the shipped document, without a token, with the sandbox as the caller reached it for its server", async () => {
    const app = createSandbox();
    const res = await app.fetch(new Request("http://127.0.0.1:8899/openapi.json"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const { servers, ...document } = (await res.json()) as Record<string, unknown>;
    const { servers: _shippedServers, ...shippedDocument } = shipped;
    expect(document).toEqual(shippedDocument);
    expect(servers).toEqual([{ url: "http://127.0.0.1:8899", description: expect.any(String) }]);
    // The document is not an API request: it is not in the request log.
    expect(app.requests()).toEqual([]);
    app.stop();
  });

  it("is listed among the routes of the unknown-route answer", async () => {
    const app = createSandbox();
    const res = await app.fetch(new Request("http://127.0.0.1:8899/openapi.yaml"));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { routes: string[] } }).error.routes).toContain(
      "GET /openapi.json",
    );
    app.stop();
  });
});
