import { readFileSync } from "node:fs";
import type { Hono } from "hono";
import type { SandboxEnv } from "../context";

/** Where the sandbox serves the OpenAPI document of the API it emulates. */
export const OPENAPI_ROUTE = "/openapi.json";

let shipped: Record<string, unknown> | undefined;

/**
 * The package's openapi.json, found by the package's own name so that the sources, dist/ and an install
 * all find the one file; read at the first request, and kept.
 */
function shippedDocument(): Record<string, unknown> {
  shipped ??= JSON.parse(readFileSync(require.resolve("@service/pulumi/openapi.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return shipped;
}

/**
 * GET /openapi.json, without a token: the package's document, with this sandbox, as the caller reached
 * it, for its server, so that a tool given the document's address tests the sandbox that served it.
 */
export function mountOpenApi(app: Hono<SandboxEnv>): void {
  app.get(OPENAPI_ROUTE, (c) =>
    c.json({
      ...shippedDocument(),
      servers: [{ url: new URL(c.req.url).origin, description: "The sandbox that served this document." }],
    }),
  );
}
