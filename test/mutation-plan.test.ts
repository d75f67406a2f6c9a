import * as fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AcceptLanguage, ApiVersionSchema, BaseUrl, ConnectionInput } from "../provider/api/connection";
import { Domain } from "../provider/api/domains/answers";
import { hostnameProblem } from "../provider/api/domains/requests";
import { formatPath } from "../provider/api/path";
import { ROUTES } from "../provider/api/routes";
import { controlCharacterProblem, safeString } from "../provider/api/text";
import { Webhook } from "../provider/api/webhooks/answers";
import { endpointProblem, filtersSchema, webhookCreateBodySchema } from "../provider/api/webhooks/requests";
import { KeyedLock } from "../provider/context/keyed-lock";
import { ProcessContext, processContext, setProcessContext } from "../provider/context/process";
import * as registrationPlan from "../provider/domain/registration-plan";
import * as verificationPlan from "../provider/domain/verification-plan";
import { domainRecord } from "../provider/domain/wire";
import { clientFor } from "../provider/runtime/clients";
import { credentialsHash } from "../provider/runtime/ownership";
import { hashSecret, secretMatches } from "../provider/runtime/secret-hash";
import { configureFromStack } from "../provider/runtime/stack-config";
import { containsUnknown, knownMembers, UNKNOWN } from "../provider/runtime/unknowns";
import { claim, hasPending, isClaimed } from "../provider/webhook/claims";
import { check, diff } from "../provider/webhook/plan";
import { candidatesIn, RECONCILE_ENV, reconcileWindowMs } from "../provider/webhook/reconcile";
import { identityOf } from "../provider/webhook/schema";
import { ownerOf, type WebhookRecord, webhookRecord } from "../provider/webhook/wire";

/**
 * The lifecycle logic that calls no API: check, diff, the unknown-value rules, reconciliation's choice
 * of candidates, and the small pieces they stand on. Tests that kill mutants the rest of the suite let
 * live (npm run mutation); each names the behaviour it guards.
 */
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
    expect((await check({}, news({ endpoint: query }))).failures.map((f) => f.property)).toEqual([
      "endpoint",
    ]);
    expect((await check({}, news({ endpoint: query, apiVersion: "1.4" }))).failures).toEqual([]);
  });

  it("checks everything but the version-bound members while the version is unknown, and keeps them as given", async () => {
    const unchecked = { endpoint: "not a url", secretKey: "short", filters: [] };
    const result = await check({}, { ...unchecked, apiVersion: UNKNOWN, channel: "bad\n" });
    expect(result.failures.map((f) => f.property)).toEqual(["channel"]);
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
    const recorded = credentialsHash(clientFor({ connection: { token: "old-token-0123456789" } }));
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

describe("domain registration plan", () => {
  const outputs = {
    domainName: "hooks.example.com",
    url: "https://hooks.example.com/service_url_registration/v",
    verifier: "v",
    key: "service_url_registration/v",
    registerToken: "register-token-0123456789",
    expiresAt: "2030-01-01T00:00:00Z",
  };

  it("remembers the connection token at check", async () => {
    const token = "domain-token-0123456789";
    await registrationPlan.check({}, { domainName: "hooks.example.com", connection: { token } });
    expect(processContext().secrets.redact(token)).toBe("[REDACTED]");
  });

  it("replaces the registration for another or an unknown hostname, and updates in place for credentials", async () => {
    expect(await registrationPlan.diff("id", outputs, { domainName: "hooks.example.com" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    for (const domainName of ["other.example.com", UNKNOWN]) {
      expect(await registrationPlan.diff("id", outputs, { domainName })).toEqual({
        changes: true,
        replaces: ["domainName"],
        deleteBeforeReplace: false,
      });
    }
    expect(
      await registrationPlan.diff("id", outputs, { domainName: "hooks.example.com", acceptLanguage: "ja" }),
    ).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

describe("domain verification plan", () => {
  const outputs = {
    domainUuid: "d-1",
    domainName: "hooks.example.com",
    status: "registered",
    verifier: "v",
    url: "https://hooks.example.com/service_url_registration/v",
    expiresAt: "2030-01-01T00:00:00Z",
    timeout: 600,
  };
  const inputs = { domainName: "hooks.example.com", verifier: "v", timeout: 600 };

  it("asks for the registration's members unless it adopts, and remembers its secrets", async () => {
    const token = "verify-token-0123456789";
    const registerToken = "register-token-0123456789";
    const { failures } = await verificationPlan.check(
      {},
      { domainName: "hooks.example.com", connection: { token } },
    );
    expect(failures).toEqual(
      ["verifier", "url", "registerToken", "expiresAt"].map((property) => ({
        property,
        reason: "is required unless adopt is true",
      })),
    );
    await verificationPlan.check({}, { domainName: "hooks.example.com", registerToken });
    expect(processContext().secrets.redact(`${token} ${registerToken}`)).toBe("[REDACTED] [REDACTED]");
    expect(
      (await verificationPlan.check({}, { domainName: "hooks.example.com", adopt: true })).failures,
    ).toEqual([]);
  });

  it("replaces for another hostname, verifier or adopt mode, and updates in place for the timeout", async () => {
    expect(await verificationPlan.diff("d-1", outputs, inputs)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    // A member left out of the inputs keeps its recorded value.
    expect((await verificationPlan.diff("d-1", outputs, { domainName: "hooks.example.com" })).changes).toBe(
      false,
    );
    for (const [key, value] of [
      ["domainName", "other.example.com"],
      ["verifier", "w"],
      ["adopt", true],
      ["verifier", UNKNOWN],
    ] as const) {
      expect(await verificationPlan.diff("d-1", outputs, { ...inputs, [key]: value })).toEqual({
        changes: true,
        replaces: [key],
        deleteBeforeReplace: false,
      });
    }
    expect(await verificationPlan.diff("d-1", outputs, { ...inputs, timeout: 60 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect((await verificationPlan.diff("d-1", outputs, { ...inputs, acceptLanguage: "ja" })).changes).toBe(
      true,
    );
  });
});

describe("unknown values", () => {
  /** A JSON value with the unknown sentinel somewhere inside, at any depth. */
  const withUnknown = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 4 },
      fc.constant(UNKNOWN),
      fc.tuple(fc.array(fc.jsonValue(), { maxLength: 2 }), tie("value")).map(([rest, v]) => [...rest, v]),
      fc
        .tuple(fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.jsonValue(), { maxKeys: 2 }), tie("value"))
        .map(([rest, v]) => ({ ...rest, inner: v })),
    ),
  })).value;

  it("are found at any depth, and nothing else is taken for one", () => {
    fc.assert(
      fc.property(withUnknown, (value) => {
        expect(containsUnknown(value)).toBe(true);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!JSON.stringify(value).includes(UNKNOWN));
        expect(containsUnknown(value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("leave out only the members that hold one", () => {
    expect(knownMembers({ a: 1, b: [UNKNOWN], c: { d: UNKNOWN }, e: null, f: "x" })).toEqual({
      a: 1,
      e: null,
      f: "x",
    });
  });
});

describe("secret hashes", () => {
  it("match the secret they were made from, and nothing else, without throwing", () => {
    const stored = hashSecret(SECRET);
    expect(stored).toMatch(/^hmac-sha256:[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(secretMatches(SECRET, stored)).toBe(true);
    expect(secretMatches(`${SECRET}x`, stored)).toBe(false);
    const [, salt, digest] = stored.split(":");
    for (const malformed of [
      `sha1:${salt}:${digest}`,
      // Another scheme of the same length, over the right digest.
      `hmac-sha257:${salt}:${digest}`,
      "hmac-sha256",
      `hmac-sha256:${salt}:${digest!.slice(1)}`,
      `hmac-sha256:${salt}:${digest}0`,
      "",
    ]) {
      expect(secretMatches(SECRET, malformed)).toBe(false);
    }
  });
});

describe("KeyedLock", () => {
  /** A task that records when it starts and ends, and finishes when told. */
  function task(log: string[], name: string) {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    return {
      run: async () => {
        log.push(`${name} start`);
        await done;
        log.push(`${name} end`);
        return name;
      },
      finish,
    };
  }

  it("runs tasks of one key one after another, and of different keys side by side", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const [a1, a2, b] = [task(log, "a1"), task(log, "a2"), task(log, "b")];
    const results = [lock.run("a", a1.run), lock.run("a", a2.run), lock.run("b", b.run)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 start", "b start"]);
    a1.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 start", "b start", "a1 end", "a2 start"]);
    // Queued while a2 runs, after a1 has finished: it still waits for a2.
    const a3 = task(log, "a3");
    results.push(lock.run("a", a3.run));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 start", "b start", "a1 end", "a2 start"]);
    a2.finish();
    b.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.indexOf("a3 start")).toBeGreaterThan(log.indexOf("a2 end"));
    a3.finish();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "b", "a3"]);
  });

  it("lets the next task run after one fails, and forgets a key once nothing waits on it", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.run("k", async () => "after")).toBe("after");
    expect((lock as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
  });
});

describe("reconciliation candidates", () => {
  const identity = identityOf({ endpoint: ENDPOINT, channel: "default", filters: FILTERS });
  const since = 1_700_000_000_000;
  const listed = (
    uuid: string,
    createdMs: number | undefined,
    overrides: Partial<WebhookRecord> = {},
  ): WebhookRecord => ({
    webhookUuid: uuid,
    endpoint: ENDPOINT,
    channel: "default",
    filters: FILTERS,
    owner: { organization: "acme", username: "" },
    createTime: createdMs === undefined ? undefined : { display: "", epoch: createdMs / 1000 },
    ...overrides,
  });

  it("are the matching webhooks created since the attempt, within the clock margin, that nobody stands for", () => {
    claim("claimed");
    const hooks = [
      listed("margin", since - 2_000),
      listed("too-old", since - 3_000),
      listed("undated", undefined),
      listed("claimed", since),
      listed("excluded", since),
      listed("other-channel", since, { channel: "orders" }),
      listed("reordered", since, { filters: [{ key: "activity.name", values: ["authentication"] }] }),
    ];
    expect(candidatesIn(hooks, { identity, since, exclude: ["excluded"] }).map((h) => h.webhookUuid)).toEqual(
      ["margin", "undated", "reordered"],
    );
  });

  it.each([
    [undefined, 30_000, 5_000],
    ["10", 10_000, 5_000],
    ["2", 2_000, 2_000],
    ["0", 0, 0],
    ["-1", 30_000, 5_000],
    ["soon", 30_000, 5_000],
  ])(
    "re-list for %s seconds configured: %i ms after a lost answer, %i ms after a 5xx",
    (value, lost, answered) => {
      if (value !== undefined) vi.stubEnv(RECONCILE_ENV, value);
      expect(RECONCILE_ENV).toBe("SERVICE_RECONCILE_SECONDS");
      expect(reconcileWindowMs(false)).toBe(lost);
      expect(reconcileWindowMs(true)).toBe(answered);
    },
  );
});

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

describe("request rule messages", () => {
  it("say what is wrong with a hostname", () => {
    expect(hostnameProblem("")).toBe("must not be empty");
    expect(hostnameProblem(`${"a.".repeat(127)}com`)).toBe("must be at most 253 characters");
    expect(hostnameProblem(`${"a.".repeat(125)}com`)).toBeUndefined();
    expect(`${"a.".repeat(125)}com`).toHaveLength(253);
    for (const host of [
      "-hooks.example.com",
      "hooks-.example.com",
      "ho_oks.example.com",
      `${"a".repeat(64)}.com`,
    ]) {
      expect(hostnameProblem(host)).toBe(
        "must consist of labels of letters, digits and inner hyphens, separated by single dots",
      );
    }
    expect(hostnameProblem(`${"a".repeat(63)}.com`)).toBeUndefined();
    expect(endpointProblem("hooks.example.com/events", "2.0")).toBe(
      "must be an absolute URL such as https://hooks.example.com/service/events",
    );
  });

  it("say what is wrong with a filter list, at the filter's path", () => {
    const problems = (filters: unknown) =>
      filtersSchema("1.4")
        .safeParse(filters)
        .error?.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    const name = { key: "activity.name", value: "authentication" };
    expect(problems([name, { key: "colour", value: "x" }])).toEqual([
      "[1].key: must be one of activity.name, activity.form_factor, owner.user.username",
    ]);
    expect(problems([name, name])).toEqual(["[1].key: activity.name must appear only once"]);
    expect(problems([name, { key: "owner.user.username" }])).toEqual(["[1]: needs value or values"]);
    expect(problems([{ key: "activity.name", values: ["authentication", "fingerprint"] }])).toEqual([
      "[0].values: activity.name takes exactly one value, authentication or fingerprint",
    ]);
    expect(problems([name, { key: "activity.form_factor", values: ["lightbox", "huge", "tiny"] }])).toEqual([
      "[1].values: activity.form_factor values must be among lightbox, microscopic, free_camera (got huge, tiny)",
    ]);
    expect(problems([name, { key: "owner.user.username", value: "" }])).toEqual([
      "[1].value: must not be empty",
    ]);
    expect(problems([name, { key: "owner.user.username", values: [""] }])).toEqual([
      "[1].values[0]: must not be empty",
    ]);
    expect(problems([name, { key: "owner.user.username", values: [] }])).toEqual([
      "[1].values: must not be empty",
    ]);
    const body = webhookCreateBodySchema("2.0").safeParse({
      endpoint: { type: "email", value: "https://hooks.example.com/e" },
      secret_key: "s".repeat(20),
      channel: "",
      filters: [name],
    });
    expect(body.error?.issues.map((i) => `${formatPath(i.path)}: ${i.message}`)).toEqual([
      "endpoint.type: must be url",
      "channel: must not be empty",
    ]);
    expect(problems([])).toEqual([
      ": must contain an activity.name filter with value authentication or fingerprint",
    ]);
  });
});

describe("connection settings and response shapes", () => {
  it("take an http(s) base URL, en or ja, 2.0 or 1.4, and a non-empty token, saying why otherwise", () => {
    for (const url of ["http://127.0.0.1:8787", "https://api.example.com/base"]) {
      expect(BaseUrl.safeParse(url).success).toBe(true);
    }
    for (const url of ["ftp://api.example.com", "httpsx://api.example.com", "xhttp://a.example.com"]) {
      expect(BaseUrl.safeParse(url).error?.issues[0]?.message).toBe("must be an http(s) URL");
    }
    expect(AcceptLanguage.safeParse("fr").error?.issues[0]?.message).toBe("must be en or ja");
    expect(ApiVersionSchema.safeParse("3.0").error?.issues[0]?.message).toBe("must be 2.0 or 1.4");
    expect(ConnectionInput.safeParse({ token: "" }).error?.issues[0]?.message).toBe("must not be empty");
  });

  it("name the control character found in any safe string", () => {
    const message = safeString().safeParse("a\u0007b").error?.issues[0]?.message;
    expect(message).toBe(controlCharacterProblem("a\u0007b"));
  });

  it("fill what the service left out: the default channel, no filters; the resources an unnamed owner", () => {
    const hookWire = { webhook_uuid: "w", endpoint: { type: "url", value: ENDPOINT } };
    const hook = Webhook.parse(hookWire);
    expect(hook).toEqual({ ...hookWire, channel: "default", filters: [] });
    expect(webhookRecord(hook).owner).toEqual({ organization: "", username: "" });
    expect(ownerOf({ organization: { name: "acme" } })).toEqual({ organization: "acme", username: "" });
    expect(domainRecord(Domain.parse({ domain_uuid: "d", domain_name: "h.example.com" })).owner).toEqual({
      organization: "",
      username: "",
    });
    // Each generation names the creation time its own way; the resources read either.
    const time = { display: "then", epoch: 1 };
    for (const key of ["create_time", "create_timestamp"]) {
      const domain = Domain.parse({ domain_uuid: "d", domain_name: "h.example.com", [key]: time });
      expect(domain).toMatchObject({ [key]: time });
      expect(domainRecord(domain).createTime).toEqual(time);
      expect(webhookRecord(Webhook.parse({ ...hookWire, [key]: time })).createTime).toEqual(time);
    }
  });
});
