import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceClient,
  ServiceError,
  UnavailableError,
} from "../provider/client/index";
import { type Sandbox, startSandbox } from "../sandbox/index";
import { steppingClock } from "./helpers/fake-clock";
import { HOOKS_TOKEN, HOST, PLAIN_TOKEN, SECRET, testSeed } from "./helpers/fixtures";
import { startOrigin, type TestOrigin } from "./helpers/origin";

let origin: TestOrigin;
let sandbox: Sandbox;
let clock: ReturnType<typeof steppingClock>;
let logs: string[];

const client = (options: ConstructorParameters<typeof ServiceClient>[0] = {}) =>
  new ServiceClient({
    token: HOOKS_TOKEN,
    baseUrl: sandbox.url,
    clock,
    rateLimitPerSecond: 0,
    logger: (line) => logs.push(line),
    ...options,
  });

const hook = (channel = "default") => ({
  endpoint: { type: "url" as const, value: `https://${HOST}/service/events` },
  secret_key: SECRET,
  channel,
  filters: [{ key: "activity.name", value: "authentication" }],
});

async function registerDomain(c: ServiceClient) {
  const start = await c.startDomainRegistration(HOST);
  origin.files.set(`/service_url_registration/${start.verifier}`, { status: 200, body: start.registerToken });
  return c.finishDomainRegistration(HOST, start.verifier);
}

beforeAll(async () => {
  origin = await startOrigin();
});
afterAll(async () => {
  await origin.close();
});
beforeEach(async () => {
  sandbox = await startSandbox({ seed: testSeed(origin.url) });
  clock = steppingClock();
  logs = [];
});
afterEach(async () => {
  await sandbox.close();
});

const calls = (route: string) => sandbox.requests().filter((r) => r.route === route).length;

describe("requests", () => {
  it("sends the auth, version, language and content-type headers, and the route's version", async () => {
    const capture = await startOrigin();
    capture.files.set("/v1/health", { status: 200, body: '{"status":"ok"}' });
    capture.files.set("/base/v1/health", { status: 200, body: '{"status":"ok"}' });
    try {
      await new ServiceClient({ token: HOOKS_TOKEN, baseUrl: capture.url, acceptLanguage: "ja" }).health();
      await new ServiceClient({ token: HOOKS_TOKEN, baseUrl: `${capture.url}/base/` }).health();
      const [first, second] = capture.received;
      expect(first!.headers).toMatchObject({
        authorization: `Token ${HOOKS_TOKEN}`,
        "api-version": "1.4",
        "accept-language": "ja",
        "content-type": "application/json",
      });
      expect(second!.path).toBe("/base/v1/health");
    } finally {
      await capture.close();
    }
  });

  it("falls back to SERVICE_API_TOKEN, SERVICE_BASE_URL and SERVICE_API_VERSION", async () => {
    const saved = { ...process.env };
    try {
      process.env.SERVICE_API_TOKEN = HOOKS_TOKEN;
      process.env.SERVICE_BASE_URL = sandbox.url;
      process.env.SERVICE_API_VERSION = "1.4";
      const fromEnv = new ServiceClient();
      expect(fromEnv.apiVersion).toBe("1.4");
      expect(await fromEnv.health()).toEqual({ status: "ok" });
      delete process.env.SERVICE_API_TOKEN;
      expect(() => new ServiceClient()).toThrow(ConfigurationError);
      process.env.SERVICE_API_TOKEN = HOOKS_TOKEN;
      process.env.SERVICE_API_VERSION = "3.0";
      expect(() => new ServiceClient()).toThrow(/apiVersion must be 2.0 or 1.4/);
    } finally {
      process.env = saved;
    }
  });

  it("speaks both generations for webhooks and pages through listings", async () => {
    const c = client();
    await registerDomain(c);
    for (const version of ["2.0", "1.4"] as const) {
      const made = await client({ apiVersion: version }).createWebhook(hook(version));
      expect(made.createTime?.epoch).toBeGreaterThan(0);
      expect((await client({ apiVersion: version }).getWebhook(made.webhookUuid)).channel).toBe(version);
    }
    for (let i = 0; i < 3; i++) await c.createWebhook(hook(`extra-${i}`));
    const all = [];
    for await (const w of c.webhooks({ limit: 2 })) all.push(w.channel);
    expect(all).toEqual(["2.0", "1.4", "extra-0", "extra-1", "extra-2"]);
    expect(calls("/v2/search/webhooks")).toBe(3);
    const domains = [];
    for await (const d of client({ apiVersion: "1.4" }).domains()) domains.push(d.domainName);
    expect(domains).toEqual([HOST]);
    await expect(c.searchWebhooks({ limit: 21 })).rejects.toThrow(/limit must be an integer from 1 to 20/);
  });

  it("deactivates webhooks and domains", async () => {
    const c = client();
    const domain = await registerDomain(c);
    const made = await c.createWebhook(hook());
    await expect(c.deactivateDomain(domain.domainUuid)).rejects.toBeInstanceOf(ConflictError);
    await c.deactivateWebhook(made.webhookUuid);
    await c.deactivateDomain(domain.domainUuid);
    await expect(c.deactivateDomain(domain.domainUuid)).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe("errors", () => {
  it("maps each status to its class, with status, method, route and request id", async () => {
    const c = client();
    await registerDomain(c);
    const bad = await c.createWebhook({ ...hook(), secret_key: "short" }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad).toMatchObject({
      status: 400,
      method: "POST",
      route: "/v2/webhooks",
      code: "invalid_request",
    });
    expect((bad as InvalidRequestError).fields[0]!.field).toBe("secret_key");
    expect((bad as InvalidRequestError).requestId).toMatch(/^req_/);

    await expect(client({ token: "wrong-token-123" }).health()).rejects.toBeInstanceOf(AuthenticationError);
    const missing = await c.getWebhook("00000000-0000-0000-0000-000000000000").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toMatch(/does not exist or belongs to another organization/);
    expect((missing as NotFoundError).route).toBe("/v2/webhooks/{webhook_uuid}");

    const stranger = {
      ...hook(),
      filters: [...hook().filters, { key: "owner.user.username", value: "nobody" }],
    };
    const v1 = await client({ apiVersion: "1.4" })
      .createWebhook(stranger)
      .catch((e: unknown) => e);
    expect(v1).toBeInstanceOf(InvalidRequestError);
    expect((v1 as InvalidRequestError).status).toBe(403);

    for (let i = 0; i < 10; i++) await c.createWebhook(hook(`c${i}`));
    await expect(c.createWebhook(hook())).rejects.toBeInstanceOf(ConflictError);
    const refused = await client({ token: PLAIN_TOKEN })
      .searchWebhooks()
      .catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/webhooks enabled/);
  });

  it("maps 429, 503 and other 5xx once retries are spent", async () => {
    const c = client({ retry: { maxAttempts: 2 } });
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 1, count: 2 });
    const limited = await c.health().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterSeconds).toBe(1);
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 2 });
    await expect(c.health()).rejects.toBeInstanceOf(UnavailableError);
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 502, count: 2 });
    await expect(c.health()).rejects.toBeInstanceOf(ServerError);
  });

  it("reports a refused connection as a ConnectionError naming the base URL", async () => {
    const closed = await startSandbox({ seed: testSeed(origin.url) });
    await closed.close();
    const error = await client({ baseUrl: closed.url })
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain(closed.url);
  });

  it("recognises errors from a second copy of the module", async () => {
    const copy = require("../dist/provider/client/errors.js") as typeof import("../provider/client/errors");
    const foreign = new copy.NotFoundError({ method: "GET", route: "/x", status: 403 });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(ServiceError);
    expect(foreign).not.toBeInstanceOf(ConflictError);
  });

  it("answers instanceof by the class on the right, not the base class (regression)", () => {
    const copy = require("../dist/provider/client/errors.js") as typeof import("../provider/client/errors");
    for (const module of [copy, { AmbiguousRequestError, ConflictError, ServiceError, NotFoundError }]) {
      const ambiguous = new module.AmbiguousRequestError({ method: "POST", route: "/v2/webhooks" }, "lost");
      expect(ambiguous instanceof module.ConflictError).toBe(false);
      expect(ambiguous instanceof ConflictError).toBe(false);
      expect(ambiguous instanceof NotFoundError).toBe(false);
      expect(ambiguous instanceof ServiceError).toBe(true);
      expect(ambiguous instanceof AmbiguousRequestError).toBe(true);
    }
  });
});

describe("retries", () => {
  it("honours Retry-After, then succeeds", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 2 });
    expect(await client().health()).toEqual({ status: "ok" });
    expect(clock.slept).toEqual([2000]);
    expect(calls("/v1/health")).toBe(2);
  });

  it("retries a safe request after 503 and 5xx with growing backoff", async () => {
    sandbox.addFault({ method: "POST", path: "/v2/search/domains", status: 503, count: 3 });
    await client({ random: () => 0.5 }).searchDomains();
    expect(calls("/v2/search/domains")).toBe(4);
    expect(clock.slept).toEqual([187.5, 375, 750]);
  });

  it("stops retrying within the time budget", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 10 });
    const c = client({ retry: { maxAttempts: 10, maxElapsedMs: 1000 }, random: () => 0.5 });
    await expect(c.health()).rejects.toBeInstanceOf(UnavailableError);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
  });

  it("never re-sends a create whose answer was lost: it raises AmbiguousRequestError", async () => {
    const c = client();
    await registerDomain(c);
    sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
    await expect(c.createWebhook(hook())).rejects.toBeInstanceOf(AmbiguousRequestError);
    expect(calls("/v2/webhooks")).toBe(1);
    const listed = await c.searchWebhooks();
    expect(listed.items).toHaveLength(1);
  });

  it("does not retry a create after a 5xx, which may have been applied", async () => {
    const c = client();
    await registerDomain(c);
    sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 500 });
    await expect(c.createWebhook(hook())).rejects.toBeInstanceOf(AmbiguousRequestError);
    expect(calls("/v2/webhooks")).toBe(1);
  });

  it("retries a safe request whose connection dropped", async () => {
    sandbox.addFault({ method: "POST", path: "/v2/search/webhooks", drop: true });
    await client().searchWebhooks();
    expect(calls("/v2/search/webhooks")).toBe(2);
  });
});

describe("redaction", () => {
  it("keeps the token, secret_key and register_token out of every log line and error", async () => {
    const c = client();
    const start = await c.startDomainRegistration(HOST);
    origin.files.set(`/service_url_registration/${start.verifier}`, {
      status: 200,
      body: start.registerToken,
    });
    await c.finishDomainRegistration(HOST, start.verifier);
    const errors: unknown[] = [];
    sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 500 });
    errors.push(await c.createWebhook(hook()).catch((e: unknown) => e));
    errors.push(await c.createWebhook({ ...hook(), channel: "" }).catch((e: unknown) => e));
    errors.push(
      await client({ token: `${HOOKS_TOKEN}-revoked` })
        .health()
        .catch((e: unknown) => e),
    );
    errors.push(
      await client({ retry: { maxAttempts: 1 } })
        .finishDomainRegistration(HOST, "x")
        .catch(() => undefined),
    );
    const printed = [
      ...logs,
      ...errors.flatMap((e) => [
        String(e),
        (e as Error)?.stack ?? "",
        JSON.stringify(e),
        JSON.stringify((e as { body?: unknown })?.body),
      ]),
    ].join("\n");
    expect(logs.length).toBeGreaterThan(3);
    expect(printed).toContain("/v2/webhooks");
    for (const secret of [HOOKS_TOKEN, SECRET, start.registerToken]) expect(printed).not.toContain(secret);
  });
});
