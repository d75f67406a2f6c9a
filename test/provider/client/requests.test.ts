import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { Agent, type Dispatcher } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as ClientModule from "../../../provider/client/index";
import {
  AmbiguousRequestError,
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  RateLimiter,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  ServiceClient,
  ServiceError,
  sharedLimiter,
  TimeoutError,
  UnavailableError,
  WebhooksNotEnabledError,
} from "../../../provider/client/index";
import { type Sandbox, startSandbox } from "../../../sandbox/index";
import { steppingClock } from "../../helpers/fake-clock";
import { HOOKS_TOKEN, HOST, PLAIN_TOKEN, SECRET, testSeed } from "../../helpers/fixtures";
import { startOrigin, type TestOrigin } from "../../helpers/origin";

let origin: TestOrigin;
let sandbox: Sandbox;
let clock: ReturnType<typeof steppingClock>;
let logs: string[];

const client = (options: ConstructorParameters<typeof ServiceClient>[0] = {}) =>
  new ServiceClient({
    token: HOOKS_TOKEN,
    baseUrl: sandbox.url,
    rateLimitPerSecond: 0,
    logger: (line) => logs.push(line),
    clock: clock.now,
    sleep: clock.sleep,
    ...options,
  });

const hook = (channel = "default") => ({
  endpoint: { type: "url" as const, value: `https://${HOST}/service/events` },
  secret_key: SECRET,
  channel,
  filters: [{ key: "activity.name", value: "authentication" }],
});

async function registerDomain(c: ServiceClient) {
  const start = await c.domains.startRegistration({ domain_name: HOST });
  origin.files.set(`/service_url_registration/${start.verifier}`, {
    status: 200,
    body: start.register_token,
  });
  return c.domains.finishRegistration({ domain_name: HOST, verifier: start.verifier });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail, and it succeeded");
    },
    (e: unknown) => e as ServiceError,
  );

beforeAll(async () => {
  origin = await startOrigin();
});
afterAll(async () => {
  await origin.close();
});
beforeEach(async () => {
  sandbox = await startSandbox({ seed: testSeed(origin.url) });
  clock = steppingClock();
  // Every test's clients run on a clock whose sleeps return at once.
  logs = [];
});
afterEach(async () => {
  await sandbox.close();
});

const calls = (route: string) => sandbox.requests().filter((r) => r.route === route).length;

/** A server that answers every request with one canned JSON body. */
async function cannedServer(body: unknown): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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

  it("deactivates webhooks and domains", async () => {
    const c = client();
    const domain = await registerDomain(c);
    const made = await c.webhooks.create(hook());
    await expect(c.domains.deactivate(domain.domain_uuid)).rejects.toBeInstanceOf(ConflictError);
    await c.webhooks.deactivate(made.webhook_uuid);
    await c.domains.deactivate(domain.domain_uuid);
    await expect(c.domains.deactivate(domain.domain_uuid)).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it("refuses an id that would address another object before sending anything (regression)", async () => {
    const c = client();
    for (const id of ["", ".", ".."]) {
      const error = await failure(c.webhooks.retrieve(id));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.code).toBe("configuration");
      expect(error.message).toMatch(/webhook_uuid must be a non-empty identifier/);
    }
    const control = await failure(c.webhooks.retrieve("a\nb"));
    expect(control).toBeInstanceOf(ConfigurationError);
    expect(control.code).toBe("configuration");
    expect(control.message).toMatch(
      /^Path parameter webhook_uuid must not contain control characters \(found U\+000A/,
    );
    expect(sandbox.requests()).toHaveLength(0);
  });

  it("stops a listing whose cursor comes back, instead of paging forever (regression)", async () => {
    const looping = await cannedServer({ item_count: 0, items: [], next_cursor: "again" });
    try {
      const c = new ServiceClient({ token: HOOKS_TOKEN, baseUrl: looping.url, rateLimitPerSecond: 0 });
      const error = await failure(
        (async () => {
          for await (const _ of c.webhooks.iterate()) {
            // nothing listed
          }
        })(),
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(/came back a second time/);
    } finally {
      await looping.close();
    }
  });
});

describe("errors", () => {
  it("maps each status to its class, with status, method, route and request id", async () => {
    const c = client();
    await registerDomain(c);
    const elsewhere = { type: "url" as const, value: "https://unregistered.example.com/e" };
    const bad = await failure(c.webhooks.create({ ...hook(), endpoint: elsewhere }));
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad).toMatchObject({
      status: 400,
      method: "POST",
      route: "/v2/webhooks",
      code: "invalid_request",
    });
    expect((bad as InvalidRequestError).fields[0]!.field).toBe("endpoint.value");
    expect((bad as InvalidRequestError).requestId).toMatch(/^req_/);

    await expect(client({ token: "wrong-token-123" }).health()).rejects.toBeInstanceOf(AuthenticationError);
    const missing = await failure(c.webhooks.retrieve("00000000-0000-0000-0000-000000000000"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toMatch(/does not exist or belongs to another organization/);
    // Regression: the sandbox's explanation said the same, and the message gave the cause twice.
    expect(missing.message.match(/does not exist/g)).toHaveLength(1);
    expect((missing as NotFoundError).route).toBe("/v2/webhooks/{webhook_uuid}");

    const stranger = {
      ...hook(),
      filters: [...hook().filters, { key: "owner.user.username", value: "nobody" }],
    };
    const v1 = await failure(client({ apiVersion: "1.4" }).webhooks.create(stranger));
    expect(v1).toBeInstanceOf(InvalidRequestError);
    expect((v1 as InvalidRequestError).status).toBe(403);

    for (let i = 0; i < 10; i++) await c.webhooks.create(hook(`c${i}`));
    await expect(c.webhooks.create(hook())).rejects.toBeInstanceOf(ConflictError);
    const v1Refused = await failure(
      client({ token: PLAIN_TOKEN, apiVersion: "1.4" }).webhooks.create(hook()),
    );
    expect(v1Refused).toBeInstanceOf(WebhooksNotEnabledError);
    const refused = await failure(client({ token: PLAIN_TOKEN }).webhooks.list());
    expect(refused).toBeInstanceOf(WebhooksNotEnabledError);
    expect(refused.code).toBe("webhooks_not_enabled");
    expect(refused.message).toMatch(/need an API token with webhooks enabled, which is off by default/);
    expect(refused.message).not.toMatch(/does not exist/);
  });

  it("says the API token is missing or refused, with every word of the advice intact (regression)", async () => {
    const error = await failure(client({ token: "wrong-token-123456" }).health());
    expect(error.message).toContain("The API token is missing or was refused");
    expect(error.message).toContain("the client's `token` option (or SERVICE_API_TOKEN)");
    expect(error.message).not.toContain("[REDACTED]");
  });

  it("maps 503 and other 5xx on a safe request once retries are spent", async () => {
    const c = client({ retry: { maxAttempts: 2 } });
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 2 });
    await expect(c.health()).rejects.toBeInstanceOf(UnavailableError);
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 502, count: 2 });
    await expect(c.health()).rejects.toBeInstanceOf(ServerError);
  });

  it("reports a refused connection as a ConnectionError naming the base URL", async () => {
    const closed = await startSandbox({ seed: testSeed(origin.url) });
    await closed.close();
    const error = await failure(client({ baseUrl: closed.url }).health());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain(closed.url);
  });

  it("says the base URL defaulted to the local sandbox when nothing set it", async () => {
    const saved = { ...process.env };
    delete process.env.SERVICE_BASE_URL;
    try {
      const c = new ServiceClient({ token: HOOKS_TOKEN, retry: { maxAttempts: 1 } });
      expect(c.options).toMatchObject({ baseUrl: "http://127.0.0.1:8787", baseUrlDefaulted: true });
      // Whatever listens on 8787 here, the message must name where the URL came from.
      const error = await c.health().then(
        () => undefined,
        (e: Error) => e,
      );
      if (error instanceof ConnectionError) {
        expect(error.message).toMatch(/defaulted to the local sandbox at http:\/\/127\.0\.0\.1:8787/);
        // A plain client's user has the package installed: `npm run sandbox` exists only in a clone.
        expect(error.message).toContain("start the sandbox with `npx service-sandbox`");
        expect(error.message).toContain("the client's `baseUrl` option");
        expect(error.message).not.toContain("pulumi config");
      }
    } finally {
      process.env = saved;
    }
  });

  it("recognises errors from a second copy of the module", async () => {
    const copy =
      require("../../../dist/provider/errors/index.js") as typeof import("../../../provider/errors/index");
    const foreign = new copy.NotFoundError({ method: "GET", route: "/x", status: 403 });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(ServiceError);
    expect(foreign).not.toBeInstanceOf(ConflictError);
  });

  it("answers instanceof by the class on the right, not the base class (regression)", () => {
    const copy =
      require("../../../dist/provider/errors/index.js") as typeof import("../../../provider/errors/index");
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

  it("waits out any number of 429s that fit in the retry budget (regression: six failed it)", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 1, count: 12 });
    expect(await client().health()).toEqual({ status: "ok" });
    expect(calls("/v1/health")).toBe(13);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(12_000);
  });

  it("fails at once, saying when to try again, when Retry-After exceeds the budget (regression)", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 45 });
    const error = await failure(client({ retry: { maxElapsedMs: 30_000 } }).health());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 45 });
    expect(error.message).toMatch(/retry budget of 30 s/);
    expect(error.message).toMatch(
      /try again after \d{4}-\d\d-\d\dT[\d:.]+Z \(the service asked to wait 45 s\)/,
    );
    expect(clock.slept).toEqual([]);
    expect(calls("/v1/health")).toBe(1);
  });

  it("stops once the 429s outlast the budget, which SERVICE_RETRY_BUDGET_SECONDS sets", async () => {
    const saved = { ...process.env };
    process.env.SERVICE_RETRY_BUDGET_SECONDS = "5";
    try {
      sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 2, count: 10 });
      const error = await failure(client().health());
      expect(error).toBeInstanceOf(RateLimitError);
      expect(clock.slept).toEqual([2000, 2000]);
      expect(error.message).toMatch(/retry budget of 5 s/);
    } finally {
      process.env = saved;
    }
  });

  it("retries a safe request after 503, 502 and 500 with growing backoff", async () => {
    for (const status of [503, 502, 500]) {
      sandbox.addFault({ method: "POST", path: "/v2/search/domains", status });
    }
    await client({ random: () => 0.5 }).domains.list();
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
    const error = await failure(c.webhooks.create(hook()));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect((error as AmbiguousRequestError).status).toBeUndefined();
    expect(calls("/v2/webhooks")).toBe(1);
    expect((await c.webhooks.list()).items).toHaveLength(1);
  });

  it.each([500, 502, 503, 504])(
    "treats a %i answer to a create as an unknown outcome, not re-sent",
    async (status) => {
      const c = client();
      await registerDomain(c);
      sandbox.addFault({ method: "POST", path: "/v2/webhooks", status });
      const error = await failure(c.webhooks.create(hook()));
      expect(error).toBeInstanceOf(AmbiguousRequestError);
      expect(error).toMatchObject({ code: "ambiguous", status });
      expect(calls("/v2/webhooks")).toBe(1);
    },
  );

  it("retries a safe request whose connection dropped", async () => {
    sandbox.addFault({ method: "POST", path: "/v2/search/webhooks", drop: true });
    await client().webhooks.list();
    expect(calls("/v2/search/webhooks")).toBe(2);
  });

  it("reports a refused connection on a create as never sent, not as an unknown outcome", async () => {
    const closed = await startSandbox({ seed: testSeed(origin.url) });
    await closed.close();
    const error = await failure(
      client({ baseUrl: closed.url, retry: { maxAttempts: 2 } }).webhooks.create(hook()),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    // Never sent, so even a create may be tried again.
    expect(logs.filter((l) => l.includes("no answer"))).toHaveLength(2);
  });

  it("reports a safe request that got no answer in time as a TimeoutError", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", delayMs: 2_500 });
    const error = await failure(client({ timeoutMs: 100, retry: { maxAttempts: 1 } }).health());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.code).toBe("timeout");
  });

  it("treats a create that got no answer in time as an unknown outcome", async () => {
    const c = client();
    await registerDomain(c);
    sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_500 });
    const error = await failure(client({ timeoutMs: 100 }).webhooks.create(hook()));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
  });
});

describe("rate limiter", () => {
  it("is shared by default by every client of a token, through SHARED_LIMITERS", async () => {
    const token = `${HOOKS_TOKEN}-shared-default`;
    const a = client({ token, rateLimitPerSecond: 2 });
    const b = client({ token, rateLimitPerSecond: 2 });
    const started = performance.now();
    // The shared limiter runs on real time; the sandbox answers 401 to the unknown token, at once.
    await Promise.allSettled([a.health(), b.health(), a.health(), b.health()]);
    // Two of the four had to wait for the first two's slots: one limiter for both clients.
    expect(performance.now() - started).toBeGreaterThan(900);
    expect(sharedLimiter({ token, baseUrl: sandbox.url, perSecond: 2 })).toBe(
      sharedLimiter({ token, baseUrl: sandbox.url, perSecond: 2 }),
    );
  });

  it("is the one given in the options when there is one, on its own clock", async () => {
    const limiter = new RateLimiter(2, clock);
    const a = client({ limiter });
    const b = client({ limiter });
    await Promise.all([a.health(), b.health(), a.health(), b.health()]);
    expect(clock.slept.length).toBeGreaterThan(0);
    expect(Math.max(...clock.slept)).toBeGreaterThan(900);
  });
});

describe("redaction", () => {
  it("keeps the token, secret_key and register_token out of every log line and error, and nothing else", async () => {
    const c = client();
    const start = await c.domains.startRegistration({ domain_name: HOST });
    origin.files.set(`/service_url_registration/${start.verifier}`, {
      status: 200,
      body: start.register_token,
    });
    await c.domains.finishRegistration({ domain_name: HOST, verifier: start.verifier });
    sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 500 });
    const errors = [
      await failure(c.webhooks.create(hook())),
      await failure(c.webhooks.create({ ...hook(), channel: "" })),
      await failure(client({ token: `${HOOKS_TOKEN}-revoked` }).health()),
      // The service echoes nothing secret, so plant the secrets where an error keeps text from outside.
      new InvalidRequestError({
        method: "POST",
        route: "/v2/webhooks",
        status: 400,
        serviceMessage: `bad secret ${SECRET} for token ${HOOKS_TOKEN} and ${start.register_token}`,
        body: { echo: { secret_key: SECRET, token: HOOKS_TOKEN } },
        problems: [{ field: "secret_key", message: `${SECRET} is weak` }],
      }),
    ];
    // A secret passed where an id belongs lands in the request path, which every log line shows.
    errors.push(await failure(c.webhooks.retrieve(SECRET)));
    const printed = [
      ...logs.map((line) => line),
      ...errors.flatMap((e) => [
        String(e),
        e.stack ?? "",
        JSON.stringify(e),
        JSON.stringify((e as { body?: unknown }).body),
      ]),
    ];
    const all = printed.join("\n");
    expect(all).toContain("/v2/webhooks");
    expect(logs.some((l) => l.includes("/v2/webhooks/[REDACTED]"))).toBe(true);
    for (const secret of [HOOKS_TOKEN, SECRET, start.register_token]) expect(all).not.toContain(secret);
    expect(all).toContain("bad secret [REDACTED] for token [REDACTED] and [REDACTED]");
  });
});

describe("on a Node.js older than 22.19", () => {
  const oldNode = ["/usr/bin/node", "/usr/local/bin/node"].find((path) => {
    if (!existsSync(path)) return false;
    const [major = 0, minor = 0] = execFileSync(path, ["-p", "process.versions.node"], { encoding: "utf8" })
      .trim()
      .split(".")
      .map(Number);
    return major < 22 || (major === 22 && minor < 19);
  });
  if (!oldNode)
    console.warn("SKIPPED: no Node.js older than 22.19 on this machine to run the old-Node tests with.");

  it.skipIf(!oldNode)("the runtime entry point fails naming both versions, with no stack trace", () => {
    // What the stored provider code loads: the package's runtime subpath, as its exports map resolves it.
    // The dynamic-provider host prints what it catches as `${error}: ${error.stack}`: with an empty stack,
    // that is the message once (test/provider/lifecycle/edge-dynamic-host.test.ts runs it through the host).
    const caught = execFileSync(
      oldNode!,
      [
        "-e",
        `try { require(${JSON.stringify(require.resolve("@service/pulumi/runtime"))}); } catch (e) { process.stdout.write(JSON.stringify({ message: e.message, stack: e.stack })); }`,
      ],
      { encoding: "utf8", stdio: "pipe" },
    );
    const error = JSON.parse(caught) as { message: string; stack: string };
    expect(error.message).toMatch(
      /needs Node\.js 22\.19 or later .* runs Node\.js \d+\.\d+\.\d+ .* first on PATH/,
    );
    expect(error.stack).toBe("");
  });

  it("the runtime bundle loads only its own chunks and Node's built-ins before the guard runs", () => {
    // The guard runs in the entry chunk, after the chunks it requires at the top: if the bundler ever
    // moved a package such as undici into one of those, an old Node would fail there, without the guard's
    // message. This holds on every machine, old Node or not.
    const entry = require.resolve("@service/pulumi/runtime");
    const eager = new Set<string>();
    const visit = (file: string) => {
      if (eager.has(file)) return;
      eager.add(file);
      // Top-level requires only: lazy ones sit inside functions (indented) or arrow functions.
      for (const [, target] of readFileSync(file, "utf8").matchAll(/^(?!.*=>)\S.*?require\("([^"]+)"\)/gm)) {
        if (target!.startsWith("./")) visit(join(dirname(file), target!));
        else expect(target).toMatch(/^node:/);
      }
    };
    visit(entry);
    expect(eager.size).toBeGreaterThan(1);
  });

  it.skipIf(!oldNode)(
    "a client constructed on an old Node throws ConfigurationError at once, naming both versions and how to get Node",
    () => {
      // Before this, the client constructed fine and its first request failed as a ConnectionError.
      const script = `
      const { ServiceClient, ConfigurationError } = require(${JSON.stringify(join(__dirname, "../../../dist/provider/client/index.js"))});
      try {
        new ServiceClient({ token: "t-0123456789" });
        console.log(JSON.stringify({ constructed: true }));
      } catch (e) {
        console.log(JSON.stringify({ configuration: e instanceof ConfigurationError, code: e.code, message: e.message }));
      }`;
      const out = JSON.parse(execFileSync(oldNode!, ["-e", script], { encoding: "utf8" }));
      expect(out).toMatchObject({ configuration: true, code: "configuration" });
      expect(out.message).toMatch(
        /^ServiceClient needs Node\.js 22\.19 or later .* runs Node\.js \d+\.\d+\.\d+ .*Install Node\.js 24 LTS/,
      );
    },
  );
});

describe("refusals before sending (spec rules a call is not needed for)", () => {
  const LONGER = "use a longer random key, e.g. the output of `openssl rand -hex 24`";
  it.each([
    ["1.4", "s".repeat(19), `must be at least 20 characters on API 1.4: ${LONGER}`],
    ["2.0", "s".repeat(15), `must be 16 to 256 characters on API 2.0: ${LONGER}`],
    ["2.0", "s".repeat(257), "must be 16 to 256 characters on API 2.0: use a shorter random key"],
  ] as const)(
    "API %s refuses a secret_key of the wrong length (case %#)",
    async (apiVersion, secret_key, message) => {
      const error = await failure(client({ apiVersion }).webhooks.create({ ...hook(), secret_key }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.code).toBe("request_validation");
      expect((error as RequestValidationError).fields).toEqual([{ field: "secret_key", message }]);
      expect(error.message).not.toContain(secret_key);
      expect(sandbox.requests()).toEqual([]);
    },
  );

  it.each([
    ["1.4", 20],
    ["2.0", 16],
    ["2.0", 256],
  ] as const)("API %s sends a secret_key of %d characters", async (apiVersion, length) => {
    await registerDomain(client());
    const made = await client({ apiVersion }).webhooks.create({ ...hook(), secret_key: "k".repeat(length) });
    expect(made.webhook_uuid).toEqual(expect.any(String));
  });

  it("refuses a create whose filters or endpoint break the spec, naming each member by its wire path", async () => {
    const error = (await failure(
      client().webhooks.create({
        endpoint: { type: "url", value: "http://hooks.example.com/e?x=1" },
        secret_key: SECRET,
        filters: [{ key: "activity.form_factor", value: "tablet" }],
      }),
    )) as RequestValidationError;
    expect(error.fields.map((f) => f.field)).toEqual(["endpoint.value", "filters[0].value", "filters"]);
    expect(sandbox.requests()).toEqual([]);
  });

  it("refuses a domain_name that is not a bare hostname, and a finish without a verifier", async () => {
    const c = client();
    const start = (await failure(
      c.domains.startRegistration({ domain_name: "https://hooks.example.com/" }),
    )) as RequestValidationError;
    expect(start.fields[0]!.field).toBe("domain_name");
    const finish = (await failure(
      c.domains.finishRegistration({ domain_name: HOST, verifier: "" }),
    )) as RequestValidationError;
    expect(finish.fields).toEqual([{ field: "verifier", message: "must not be empty" }]);
    expect(sandbox.requests()).toEqual([]);
  });

  it("has its own code, and is still a ConfigurationError for code that catches those", async () => {
    const error = await failure(client().webhooks.list({ limit: 0 }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.code).toBe("request_validation");
    expect(new ConfigurationError("x").code).toBe("configuration");
  });
});

describe("state owned by the instance", () => {
  /** An undici Agent that counts what it dispatches: a transport a test can tell apart from another. */
  class CountingAgent extends Agent {
    dispatched = 0;
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      this.dispatched++;
      return super.dispatch(options, handler);
    }
  }

  it("two clients in one process use each its own clock and transport", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 45, count: 2 });
    const [agentA, agentB] = [new CountingAgent(), new CountingAgent()];
    const a = client({ clock: () => 1_000_000, dispatcher: agentA, retry: { maxElapsedMs: 1_000 } });
    const b = client({ clock: () => 9_000_000, dispatcher: agentB, retry: { maxElapsedMs: 1_000 } });
    const [errorA, errorB] = [await failure(a.health()), await failure(b.health())];
    expect((errorA as RateLimitError).retryAt).toEqual(new Date(1_000_000 + 45_000));
    expect((errorB as RateLimitError).retryAt).toEqual(new Date(9_000_000 + 45_000));
    expect([agentA.dispatched, agentB.dispatched]).toEqual([1, 1]);
    await b.health();
    expect([agentA.dispatched, agentB.dispatched]).toEqual([1, 2]);
    // Before any answer, the service's clock is taken to be the client's own.
    expect(client({ clock: () => 42 }).serverNow()).toBe(42);
    await Promise.all([agentA.close(), agentB.close()]);
  });

  it("exports no process-wide test hooks from ./client", () => {
    expect(Object.keys(ClientModule)).not.toContain("setProcessContext");
    expect(Object.keys(ClientModule)).not.toContain("ProcessContext");
  });
});

describe("RequestValidationError", () => {
  const info = { method: "POST", route: "/v2/webhooks" };

  it("names the request, each member and its rule, and asks to correct it", () => {
    const one = new RequestValidationError(info, [{ field: "secret_key", message: "is too short" }]);
    expect(one.message).toBe(
      "POST /v2/webhooks was not sent: secret_key is too short. Correct it and call again.",
    );
    expect(one).toMatchObject({ method: "POST", route: "/v2/webhooks", code: "request_validation" });
    expect(one.name).toBe("RequestValidationError");
    const two = new RequestValidationError(info, [
      { field: "channel", message: "must not be empty" },
      { field: "filters", message: "must contain an activity.name filter" },
    ]);
    expect(two.message).toBe(
      "POST /v2/webhooks was not sent: channel must not be empty; filters must contain an activity.name filter. Correct them and call again.",
    );
    expect(two.fields).toEqual([
      { field: "channel", message: "must not be empty" },
      { field: "filters", message: "must contain an activity.name filter" },
    ]);
  });

  it("keeps no secret in its fields", () => {
    // A client remembers its token as a secret when it is made.
    client();
    const error = new RequestValidationError(info, [
      { field: "secret_key", message: `${HOOKS_TOKEN} is wrong` },
    ]);
    expect(error.fields[0]!.message).toBe("[REDACTED] is wrong");
    expect(error.message).not.toContain(HOOKS_TOKEN);
  });
});
