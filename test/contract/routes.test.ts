/**
 * The route rules of contract/routes.ts, as the areas apply them: which routes may be repeated, and which
 * need a token with webhooks enabled.
 */

import { describe, expect, it } from "vitest";
import { ROUTES } from "../../provider/client/routes";

describe("the route table", () => {
  it("lets only reads, searches and the read-only config and catalog POSTs be repeated, and marks the webhook and domain routes", () => {
    for (const [name, route] of Object.entries(ROUTES)) {
      const readOnlyPost = /\/search\/|^\/v2\/(config|catalog)\//.test(route.path);
      expect({ name, retrySafe: route.retrySafe }).toEqual({
        name,
        retrySafe: route.method === "GET" || readOnlyPost,
      });
      const hooks = /\/(webhooks|domains)\b/.test(route.path) || route.path.includes("/search/webhooks");
      expect({ name, webhooksFeature: route.webhooksFeature }).toEqual({ name, webhooksFeature: hooks });
    }
  });
});
