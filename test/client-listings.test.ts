import { describe, expect, it } from "vitest";
import { RequestValidationError } from "../provider/client/index";
import { rejection, useClientSandbox } from "./helpers/client-sandbox";

/** Webhook and domain listings check their page body with the shared page rule (api/pages.ts). */
const world = useClientSandbox();

describe("webhook and domain listings", () => {
  it.each([
    ["2.0", 21, "must be an integer from 1 to 20"],
    ["1.4", 26, "must be an integer from 1 to 25"],
    ["2.0", 0, "must be an integer from 1 to 20"],
  ] as const)("API %s refuses limit %d before sending", async (apiVersion, limit, message) => {
    const c = world.current.client({ apiVersion });
    for (const listing of [c.searchWebhooks({ limit }), c.searchDomains({ limit })]) {
      const error = await rejection<RequestValidationError>(listing);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.fields).toEqual([{ field: "limit", message }]);
    }
    expect(world.current.requests()).toBe(0);
  });

  it.each([
    ["2.0", 20],
    ["1.4", 25],
  ] as const)(
    "API %s sends the largest page size, and pages through an empty listing",
    async (apiVersion, limit) => {
      const c = world.current.client({ apiVersion });
      expect(await c.searchWebhooks({ limit })).toEqual({ items: [], item_count: 0, next_cursor: null });
      const all = [];
      for await (const domain of c.domains()) all.push(domain);
      expect(all).toEqual([]);
      expect(world.current.requests()).toBe(2);
    },
  );
});
