/** The Webhook's declaration (provider/webhook/resource.ts): check and diff. */

import * as fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, processContext, setProcessContext } from "../../../provider/context/process";
import { domainRegistrationLifecycle } from "../../../provider/domain/declaration";
import { clientFor } from "../../../provider/lifecycle/clients";
import { credentialsHash } from "../../../provider/lifecycle/credentials-hash";
import { hashSecret } from "../../../provider/lifecycle/secret-hash";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { webhookLifecycle } from "../../../provider/webhook/declaration";
import {
  check as checkWith,
  diff as diffWith,
  hasPending,
  identityOf,
  isClaimed,
} from "../../../provider/webhook/resource";
import { failedFields, failureOn } from "../../helpers/check-failures";
import { HOST, webhookArgs } from "../../helpers/fixtures";
import { configureProcess, providerSettings, underProvider } from "../../helpers/runtime";
import { hookBody, useRegisteredWorld } from "../../helpers/world";

const { check, diff } = underProvider({ check: checkWith, diff: diffWith });

const domainRegistration = underProvider(domainRegistrationLifecycle);
const webhook = underProvider(webhookLifecycle);

/**
 * A Webhook's plan, what `pulumi preview` runs: check and diff. Neither calls the API; each case names
 * the behaviour it guards (mutation testing found what the rest of the suite left unchecked).
 */
describe("check and diff", () => {
  const SECRET = "whsec-plan-secret-0123456789";
  const ENDPOINT = "https://hooks.example.com/events";
  const FILTERS = [{ key: "activity.name", value: "authentication" }];
  const UUID = "8f14e45f-ceea-467f-a8f0-6b5a4f5e0c11";

  beforeEach(() => {
    setProcessContext(new ProcessContext());
  });

  /** What a created webhook keeps in state. */
  const state = (overrides: Record<string, unknown> = {}) => ({
    webhookUuid: UUID,
    endpoint: ENDPOINT,
    channel: "default",
    filters: FILTERS,
    apiVersion: "2.0",
    secretKeyHash: hashSecret(SECRET),
    ...overrides,
  });
  const news = (overrides: Record<string, unknown> = {}) => ({
    endpoint: ENDPOINT,
    secretKey: SECRET,
    filters: FILTERS,
    ...overrides,
  });

  describe("webhook check", () => {
    it("remembers the secret key and the connection token, so that no later message repeats them", async () => {
      const token = "plan-token-0123456789";
      await check({}, news({ connection: { token } }));
      expect(processContext().secrets.redact(`${SECRET} ${token}`)).toBe("[REDACTED] [REDACTED]");
    });

    it("applies the rules of the version asked for, 2.0 when none is", async () => {
      const query = `${ENDPOINT}?a=1`;
      expect(failedFields((await check({}, news({ endpoint: query }))).failures)).toEqual(["endpoint"]);
      expect((await check({}, news({ endpoint: query, apiVersion: "1.4" }))).failures).toEqual([]);
    });

    it("checks everything but the version-bound members while the version is unknown, and keeps them as given", async () => {
      const unchecked = { endpoint: "not a url", secretKey: "short", filters: [] };
      const result = await check({}, { ...unchecked, apiVersion: UNKNOWN, channel: "bad\n" });
      expect(failedFields(result.failures)).toEqual(["channel"]);
      const clean = await check({}, { ...unchecked, apiVersion: UNKNOWN });
      expect(clean.failures).toEqual([]);
      expect(clean.inputs).toEqual({
        ...unchecked,
        apiVersion: UNKNOWN,
        channel: "default",
        credentials: expect.stringMatching(/^token from SERVICE_API_TOKEN \(environment\), base URL /),
      });
    });
  });

  describe("webhook diff", () => {
    it("shows no change for the same webhook, however its inputs are spelt", async () => {
      const same = [
        news(),
        news({ channel: "default", apiVersion: "2.0" }),
        news({ filters: [{ key: "activity.name", values: ["authentication"] }] }),
      ];
      for (const n of same) {
        expect(await diff(UUID, state(), n)).toEqual({
          changes: false,
          replaces: [],
          deleteBeforeReplace: false,
          detailedDiff: {},
        });
      }
    });

    it.each([
      ["endpoint", { endpoint: "https://hooks.example.com/other" }],
      ["channel", { channel: "orders" }],
      ["apiVersion", { apiVersion: "1.4" }],
      ["filters", { filters: [{ key: "activity.name", value: "fingerprint" }] }],
      ["secretKey", { secretKey: `${SECRET}-rotated` }],
      ["adoptWebhookUuid", { adoptWebhookUuid: "11111111-2222-4333-8444-555555555555" }],
    ])("replaces the webhook when %s changes, and shows that member alone", async (key, override) => {
      expect(await diff(UUID, state(), news(override))).toEqual({
        changes: true,
        replaces: [key],
        deleteBeforeReplace: false,
        // A secret is shown against the outputs, which hold only its hash: `[secret]` once, no old value.
        detailedDiff: {
          [key]: {
            kind: key === "adoptWebhookUuid" ? "ADD_REPLACE" : "UPDATE_REPLACE",
            inputDiff: key !== "secretKey",
          },
        },
      });
    });

    it("treats an unknown value as a replacement, for every member that defines the webhook", async () => {
      for (const key of ["endpoint", "channel", "apiVersion", "filters", "secretKey"]) {
        const result = await diff(UUID, state(), news({ [key]: UNKNOWN }));
        expect(result.replaces).toEqual([key]);
      }
      expect(
        (await diff(UUID, state(), news({ filters: [{ key: "activity.name", value: UNKNOWN }] }))).replaces,
      ).toEqual(["filters"]);
    });

    it("keeps adopting the webhook it stands for, pending or not", async () => {
      expect(
        (await diff(UUID, state({ adoptWebhookUuid: UUID }), news({ adoptWebhookUuid: UUID }))).replaces,
      ).toEqual([]);
      const pending = state({ webhookUuid: undefined, pendingSince: "2030-01-01T00:00:00.000Z" });
      expect((await diff("pending-1", pending, news({ adoptWebhookUuid: "pending-1" }))).replaces).toEqual(
        [],
      );
    });

    it("claims the webhook it stands for, or notes the pending create, for this process's reconciliations", async () => {
      await diff("id-in-state", state(), news());
      expect(isClaimed(UUID)).toBe(true);
      expect(isClaimed("id-in-state")).toBe(false);
      const pending = state({ webhookUuid: undefined, pendingSince: "2030-01-01T00:00:00.000Z" });
      const result = await diff("pending-1", pending, news());
      // A pending webhook always shows a change, so that `pulumi up` runs the update that settles it.
      expect(result).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
      expect(hasPending(identityOf(pending))).toBe(true);
      expect(isClaimed("pending-1")).toBe(false);
    });

    it("updates in place when the credentials move, and only then", async () => {
      configureProcess({ "service:token": "stack-token-0123456789" });
      const recorded = credentialsHash(
        clientFor({ connection: { token: "old-token-0123456789" } }, providerSettings()).options,
      );
      const moved = await diff(UUID, state({ credentialsHash: recorded }), news());
      // No input changed: the words check added about the credentials are what the engine shows.
      expect(moved).toEqual({
        changes: true,
        replaces: [],
        deleteBeforeReplace: false,
        detailedDiff: { credentials: { kind: "UPDATE", inputDiff: true } },
      });
      const kept = await diff(
        UUID,
        state({ credentialsHash: recorded, connection: { token: "old-token-0123456789" } }),
        news({ connection: { token: "old-token-0123456789" } }),
      );
      expect(kept.changes).toBe(false);
      // State from before 0.2 recorded no credentials: nothing to compare with.
      expect((await diff(UUID, state(), news())).changes).toBe(false);
    });

    it("shows the member that changed, and the credentials' words where connection changes", async () => {
      const connection = { token: "old-token-0123456789" };
      const result = await diff(
        UUID,
        state({ connection }),
        news({ connection: { token: "new-token-0123456789" } }),
      );
      expect(result).toMatchObject({ changes: true, replaces: [] });
      expect(result.detailedDiff).toEqual({
        connection: { kind: "UPDATE", inputDiff: true },
        credentials: { kind: "UPDATE", inputDiff: true },
      });
      const removed = await diff(UUID, state({ connection }), news());
      expect(removed.detailedDiff.connection).toEqual({ kind: "DELETE", inputDiff: true });
      const added = await diff(UUID, state(), news({ channel: "orders", acceptLanguage: "de" }));
      expect(added.detailedDiff).toEqual({
        channel: { kind: "UPDATE_REPLACE", inputDiff: true },
        acceptLanguage: { kind: "ADD", inputDiff: true },
      });
    });

    it("adds to the inputs where the credentials come from, in words that hold no secret", async () => {
      configureProcess({
        "service:token": "stack-token-0123456789",
        "service:baseUrl": "https://api.example.com/v2/?q=1",
      });
      const fromStack = (await check({}, news())).inputs.credentials;
      expect(fromStack).toBe(
        "token from service:token (stack configuration), base URL https://api.example.com/v2",
      );
      const given = await check(
        {},
        news({ connection: { token: "given-token-0123456789", baseUrl: "http://127.0.0.1:1" } }),
      );
      expect(given.inputs.credentials).toBe("token from connection.token, base URL http://127.0.0.1:1");
      expect((await check({}, news({ connection: UNKNOWN }))).inputs).not.toHaveProperty("credentials");
      expect((await check({}, news({ channel: "" }))).inputs).not.toHaveProperty("credentials");
    });

    it("shows no credential move when no credentials can be found at all", async () => {
      vi.stubEnv("SERVICE_API_TOKEN", "");
      const recorded = hashSecret("http://127.0.0.1:8787\nsome-token");
      expect((await diff(UUID, state({ credentialsHash: recorded }), news())).changes).toBe(false);
    });
  });
});

describe("control characters", () => {
  const world = useRegisteredWorld();

  const args = webhookArgs;

  const INJECTED = [
    ["a CR LF header injection", `https://${HOST}/in\r\nX-Injected: 1`],
    ["a TAB", `https://${HOST}/in\tside`],
    ["a NUL", `https://${HOST}/in\u0000side`],
  ] as const;

  describe("control characters (regression: the URL parser strips them, the raw value was stored)", () => {
    it.each(INJECTED)("check refuses %s in the endpoint, naming the property", async (_name, endpoint) => {
      const { failures } = await webhook.check({}, args({ endpoint }));
      expect(failures).toEqual([
        { property: "", reason: expect.stringMatching(/^endpoint must not contain control characters/) },
      ]);
    });

    it.each([
      ["channel", { channel: "orders\n" }, "channel"],
      [
        "a filter value",
        { filters: [{ key: "activity.name", value: "authentication\u0007" }] },
        "filters[0].value",
      ],
    ])("check refuses one in the %s", async (_name, override, property) => {
      const { failures } = await webhook.check({}, args(override));
      expect(failedFields(failures)).toContain(property);
      expect(failureOn(failures, property)!.reason).toMatch(/control characters/);
    });

    it.each(INJECTED)("the sandbox answers 400 to %s and stores nothing", async (_name, endpoint) => {
      const response = await world.current.api("POST", "/v2/webhooks", {
        body: hookBody({ endpoint: { type: "url", value: endpoint } }),
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.json)).toMatch(/control characters/);
      const listed = await world.current.api("POST", "/v2/search/webhooks", { body: {} });
      expect(listed.json.items).toEqual([]);
    });

    it("the sandbox refuses a channel with a line break", async () => {
      const response = await world.current.api("POST", "/v2/webhooks", {
        body: hookBody({ channel: "a\r\nb" }),
      });
      expect(response.status).toBe(400);
    });
  });
});

describe("IP-literal endpoints", () => {
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

    it.each(SPELLINGS.filter((h) => h !== "hooks.acme.0x1"))(
      "check names the IP rule for %s",
      async (host) => {
        const { failures } = await webhook.check({}, webhookArgs({ endpoint: `https://${host}/in` }));
        expect(failures[0]?.reason).toMatch(IP_MESSAGE);
      },
    );

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
});
