import { describe, expect, it } from "vitest";
import { HOST } from "../../../helpers/fixtures";
import { hook, useHooksSandbox } from "../../../helpers/hooks-sandbox";

/** The webhooks area of ServiceClient against the sandbox. */

describe("webhooks", () => {
  const world = useHooksSandbox();
  const { client, registerDomain, calls } = world;

  it("speaks both generations for webhooks and pages through listings", async () => {
    const c = client();
    await registerDomain(c);
    for (const version of ["2.0", "1.4"] as const) {
      const made = await client({ apiVersion: version }).webhooks.create(hook(version));
      // Each generation's own key: create_time on 2.0, create_timestamp on 1.4.
      const created = version === "2.0" ? made.create_time : made.create_timestamp;
      expect(created?.epoch).toBeGreaterThan(0);
      expect(Object.keys(made)).not.toContain(version === "2.0" ? "create_timestamp" : "create_time");
      expect((await client({ apiVersion: version }).webhooks.retrieve(made.webhook_uuid)).channel).toBe(
        version,
      );
    }
    for (let i = 0; i < 3; i++) await c.webhooks.create(hook(`extra-${i}`));
    const all = [];
    for await (const w of c.webhooks.iterate({ limit: 2 })) all.push(w.channel);
    expect(all).toEqual(["2.0", "1.4", "extra-0", "extra-1", "extra-2"]);
    expect(calls("/v2/search/webhooks")).toBe(3);
    const domains = [];
    for await (const d of client({ apiVersion: "1.4" }).domains.iterate()) domains.push(d.domain_name);
    expect(domains).toEqual([HOST]);
    await expect(c.webhooks.list({ limit: 21 })).rejects.toThrow(/limit must be an integer from 1 to 20/);
  });
});
