/**
 * A Webhook's plan, what `pulumi preview` runs: check and diff. Neither calls the API; each case names
 * the behaviour it guards (mutation testing found what the rest of the suite left unchecked).
 */

import { beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, processContext, setProcessContext } from "../../../provider/context/process";
import { clientFor } from "../../../provider/lifecycle/clients";
import { credentialsHash } from "../../../provider/lifecycle/credentials-hash";
import { hashSecret } from "../../../provider/lifecycle/secret-hash";
import { configureFromStack } from "../../../provider/lifecycle/stack-config";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { hasPending, isClaimed } from "../../../provider/webhook/claims";
import { check, diff } from "../../../provider/webhook/plan";
import { identityOf } from "../../../provider/webhook/schema";
import { failedFields } from "../../helpers/check-failures";

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
    expect(clean.inputs).toEqual({ ...unchecked, apiVersion: UNKNOWN, channel: "default" });
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
  ])("replaces the webhook when %s changes", async (key, override) => {
    expect(await diff(UUID, state(), news(override))).toEqual({
      changes: true,
      replaces: [key],
      deleteBeforeReplace: false,
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
    expect((await diff("pending-1", pending, news({ adoptWebhookUuid: "pending-1" }))).replaces).toEqual([]);
  });

  it("claims the webhook it stands for, or notes the pending create, for this process's reconciliations", async () => {
    await diff("id-in-state", state(), news());
    expect(isClaimed(UUID)).toBe(true);
    expect(isClaimed("id-in-state")).toBe(false);
    const pending = state({ webhookUuid: undefined, pendingSince: "2030-01-01T00:00:00.000Z" });
    const result = await diff("pending-1", pending, news());
    // A pending webhook always shows a change, so that `pulumi up` runs the update that settles it.
    expect(result).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(hasPending(identityOf(pending))).toBe(true);
    expect(isClaimed("pending-1")).toBe(false);
  });

  it("updates in place when the credentials move, and only then", async () => {
    configureFromStack({ get: (k) => ({ "service:token": "stack-token-0123456789" })[k] });
    const recorded = credentialsHash(clientFor({ connection: { token: "old-token-0123456789" } }).options);
    const moved = await diff(UUID, state({ credentialsHash: recorded }), news());
    expect(moved).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const kept = await diff(
      UUID,
      state({ credentialsHash: recorded, connection: { token: "old-token-0123456789" } }),
      news({ connection: { token: "old-token-0123456789" } }),
    );
    expect(kept.changes).toBe(false);
    // State from before 0.2 recorded no credentials: nothing to compare with.
    expect((await diff(UUID, state(), news())).changes).toBe(false);
  });

  it("shows no credential move when no credentials can be found at all", async () => {
    vi.stubEnv("SERVICE_API_TOKEN", "");
    const recorded = hashSecret("http://127.0.0.1:8787\nsome-token");
    expect((await diff(UUID, state({ credentialsHash: recorded }), news())).changes).toBe(false);
  });
});
