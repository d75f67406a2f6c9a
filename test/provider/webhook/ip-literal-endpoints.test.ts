import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { domainRegistrationLifecycle as domainRegistration } from "../../../provider/domain/declaration";
import { webhookLifecycle as webhook } from "../../../provider/webhook/declaration";
import { failedFields } from "../../helpers/check-failures";
import { webhookArgs } from "../../helpers/fixtures";
import { hookBody, useRegisteredWorld } from "../../helpers/world";

/**
 * Regression (issue 18, item 7): the URL parser reads hex and dotted numbers as IPv4, so
 * `https://0x7f.0x0.0x0.0x1/in` and `https://0x0/` passed check as hostnames. A webhook endpoint must be on
 * a registered domain: IP literals are refused in every spelling, at check and in the sandbox.
 */
const world = useRegisteredWorld();
const IP_MESSAGE = /must be a registered domain name, not an IP address/;

const SPELLINGS = [
  "127.0.0.1",
  "0x7f.0x0.0x0.0x1",
  "0x0",
  "0X7F.1",
  "2130706433",
  "0177.0.0.1",
  "hooks.acme.0x1",
  "[::1]",
  "[::ffff:7f00:1]",
];

describe("IP-literal hosts are refused", () => {
  it.each(SPELLINGS)("check refuses https://%s/in as an endpoint", async (host) => {
    const { failures } = await webhook.check({}, webhookArgs({ endpoint: `https://${host}/in` }));
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^endpoint (host must be a registered domain|must be an absolute)/),
      },
    ]);
  });

  it.each(SPELLINGS.filter((h) => h !== "hooks.acme.0x1"))("check names the IP rule for %s", async (host) => {
    const { failures } = await webhook.check({}, webhookArgs({ endpoint: `https://${host}/in` }));
    expect(failures[0]?.reason).toMatch(IP_MESSAGE);
  });

  it.each(SPELLINGS)("a domain registration refuses %s as a domain name", async (host) => {
    const { failures } = await domainRegistration.check({}, { domainName: host });
    expect(failures[0]).toEqual({ property: "", reason: expect.stringMatching(IP_MESSAGE) });
    expect(failedFields(failures)).toEqual(["domainName"]);
  });

  it.each(["https://127.0.0.1/in", "https://0x7f.0x0.0x0.0x1/in", "https://0x0/", "https://[::1]/in"])(
    "the sandbox answers 400 to a webhook on %s and stores nothing",
    async (endpoint) => {
      const response = await world.current.api("POST", "/v2/webhooks", {
        body: hookBody({ endpoint: { type: "url", value: endpoint } }),
      });
      expect(response.status).toBe(400);
      expect(response.json.error.message).toMatch(IP_MESSAGE);
      const listed = await world.current.api("POST", "/v2/search/webhooks", { body: {} });
      expect(listed.json.items).toEqual([]);
    },
  );

  it("the sandbox refuses start_registration of an IP address", async () => {
    const response = await world.current.api("POST", "/v2/domains/start_registration", {
      body: { domain_name: "0x7f.0x0.0x0.0x1" },
    });
    expect(response.status).toBe(400);
    expect(response.json.error.message).toMatch(IP_MESSAGE);
  });

  it("every IPv4 spelling of any address is refused (property)", async () => {
    const part = (n: number) => fc.constantFrom(String(n), `0x${n.toString(16)}`, `0${n.toString(8)}`);
    const ipv4 = fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 })
      .chain((bytes) => fc.tuple(...bytes.map(part)))
      .map((parts) => parts.join("."));
    await fc.assert(
      fc.asyncProperty(ipv4, async (host) => {
        const { failures } = await webhook.check({}, webhookArgs({ endpoint: `https://${host}/in` }));
        expect(failures[0]?.reason).toMatch(IP_MESSAGE);
      }),
      { numRuns: 100 },
    );
  });
});
