import { describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  ConnectionError,
  InvalidRequestError,
  RateLimitError,
  ServerError,
  ServiceClient,
  type ServiceError,
  TimeoutError,
  UnavailableError,
  UnexpectedStatusError,
} from "../../../provider/client/index";
import { neverSent, SendFailure } from "../../../provider/client/transport";
import { startSandbox } from "../../../sandbox/index";
import { rejection } from "../../helpers/client-sandbox";
import { HOOKS_TOKEN, HOST, SECRET, testSeed } from "../../helpers/fixtures";
import { hook, useHooksSandbox } from "../../helpers/hooks-sandbox";
import { startOrigin } from "../../helpers/origin";

import {
  CREATE,
  clientOf,
  clock,
  failureOf,
  scripted,
  useScriptedServers,
} from "../../helpers/scripted-server";

/** What the client sends and how it reads answers: headers, bodies, the service's clock, status mapping. */

useScriptedServers();

describe("answers", () => {
  it("reports a status it has no meaning for as UnexpectedStatusError, with the service's request id", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(404, { "request-id": "req_404" }).end("no such route");
    });
    const error = await failureOf(clientOf(server.url).health());
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/health answered 404: no such route\. .* \(request id req_404\)$/,
    );
  });

  it("parses only 2xx answers: a 300 is a status it has no meaning for", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(300, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok" }));
    });
    expect(await failureOf(clientOf(server.url).health())).toBeInstanceOf(UnexpectedStatusError);
  });

  it("says a 5xx to a create leaves its outcome unknown, naming the status", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(502).end();
    });
    const error = await failureOf(clientOf(server.url).webhooks.create(CREATE));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toContain("(the service answered 502)");
    expect(server.seen).toHaveLength(1);
  });

  it("keeps the failed send as the cause of a lost create, down to the socket's error", async () => {
    const server = await scripted((_r, _i, res) => {
      res.socket?.destroy();
    });
    const error = await failureOf(clientOf(server.url).webhooks.create(CREATE));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    const cause = error.cause as SendFailure;
    expect(cause).toBeInstanceOf(SendFailure);
    expect(cause).toMatchObject({ sent: true, timedOut: false });
    expect(cause.cause).toBeInstanceOf(Error);
  });

  it("keeps the refused connection as the cause of a ConnectionError", async () => {
    const server = await scripted(() => ({}));
    await server.close();
    const error = await failureOf(clientOf(server.url, { retry: { maxAttempts: 1 } }).health());
    expect(error).toBeInstanceOf(ConnectionError);
    const cause = error.cause as SendFailure;
    expect(cause).toMatchObject({ sent: false, timedOut: false });
    expect(cause.message).toMatch(/^ECONNREFUSED: /);
    expect(neverSent(cause.cause)).toBe(true);
  });
});

describe("requests", () => {
  it("say who sends them, and carry a body only when there is one", async () => {
    const server = await scripted(() => ({ status: "ok", items: [] }));
    const client = clientOf(server.url);
    await client.health();
    await client.webhooks.list({ limit: 2 });
    const [get, post] = server.seen;
    expect(get!.headers["user-agent"]).toBe("@service/pulumi");
    expect(get!.body).toBe("");
    expect(post!.headers["user-agent"]).toBe("@service/pulumi");
    expect(JSON.parse(post!.body)).toEqual({ limit: 2, cursor: null });
  });

  it("log one line per attempt and per wait, with the time the attempt took", async () => {
    const server = await scripted((_r, index, res) => {
      if (index === 0) {
        res.writeHead(503).end();
        return undefined;
      }
      return { status: "ok" };
    });
    const lines: string[] = [];
    await clientOf(server.url, { logger: (l) => lines.push(l), random: () => 0.5 }).health();
    // The stepping clock stands still during a request, so every attempt takes 0 ms.
    expect(lines).toEqual([
      "GET /v1/health -> 503 in 0 ms (attempt 1)",
      "GET /v1/health: retrying in 188 ms",
      "GET /v1/health -> 200 in 0 ms (attempt 2)",
    ]);
  });

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
});

describe("the service's clock", () => {
  it("is read from the Date header of its answers, per base URL", async () => {
    const ahead = 3_600_000;
    const aheadServer = await scripted((_r, _i, res) => {
      res.sendDate = false;
      res
        .writeHead(200, {
          "content-type": "application/json",
          date: new Date(clock.now() + ahead).toUTCString(),
        })
        .end(JSON.stringify({ status: "ok" }));
    });
    const silentServer = await scripted((_r, _i, res) => {
      res.sendDate = false;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok" }));
    });
    const ahead1 = clientOf(aheadServer.url);
    const silent = clientOf(silentServer.url);
    // Before any answer, the service's clock is taken to be this machine's.
    expect(ahead1.serverNow()).toBe(clock.now());
    await ahead1.health();
    await silent.health();
    // The header has whole seconds (the clock starts on a whole second here); half a second is added.
    expect(ahead1.serverNow()).toBe(clock.now() + ahead + 500);
    expect(silent.serverNow()).toBe(clock.now());
  });
});

describe("against the sandbox", () => {
  const world = useHooksSandbox();
  const { client, registerDomain, calls } = world;

  describe("failures", () => {
    it("maps 503 and other 5xx on a safe request once retries are spent", async () => {
      const c = client({ retry: { maxAttempts: 2 } });
      world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 2 });
      await expect(c.health()).rejects.toBeInstanceOf(UnavailableError);
      world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 502, count: 2 });
      await expect(c.health()).rejects.toBeInstanceOf(ServerError);
    });

    it("reports a refused connection as a ConnectionError naming the base URL", async () => {
      const closed = await startSandbox({ seed: testSeed(world.origin.url) });
      await closed.close();
      const error = await rejection<ServiceError>(client({ baseUrl: closed.url }).health());
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
  });

  describe("retries", () => {
    it("honours Retry-After, then succeeds", async () => {
      world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 2 });
      expect(await client().health()).toEqual({ status: "ok" });
      expect(world.clock.slept).toEqual([2000]);
      expect(calls("/v1/health")).toBe(2);
    });

    it("waits out any number of 429s that fit in the retry budget (regression: six failed it)", async () => {
      world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 1, count: 12 });
      expect(await client().health()).toEqual({ status: "ok" });
      expect(calls("/v1/health")).toBe(13);
      expect(world.clock.slept.reduce((a, b) => a + b, 0)).toBe(12_000);
    });

    it("fails at once, saying when to try again, when Retry-After exceeds the budget (regression)", async () => {
      world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 45 });
      const error = await rejection<ServiceError>(client({ retry: { maxElapsedMs: 30_000 } }).health());
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 45 });
      expect(error.message).toMatch(/retry budget of 30 s/);
      expect(error.message).toMatch(
        /try again after \d{4}-\d\d-\d\dT[\d:.]+Z \(the service asked to wait 45 s\)/,
      );
      expect(world.clock.slept).toEqual([]);
      expect(calls("/v1/health")).toBe(1);
    });

    it("stops once the 429s outlast the budget, which SERVICE_RETRY_BUDGET_SECONDS sets", async () => {
      const saved = { ...process.env };
      process.env.SERVICE_RETRY_BUDGET_SECONDS = "5";
      try {
        world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 2, count: 10 });
        const error = await rejection<ServiceError>(client().health());
        expect(error).toBeInstanceOf(RateLimitError);
        expect(world.clock.slept).toEqual([2000, 2000]);
        expect(error.message).toMatch(/retry budget of 5 s/);
      } finally {
        process.env = saved;
      }
    });

    it("retries a safe request after 503, 502 and 500 with growing backoff", async () => {
      for (const status of [503, 502, 500]) {
        world.sandbox.addFault({ method: "POST", path: "/v2/search/domains", status });
      }
      await client({ random: () => 0.5 }).domains.list();
      expect(calls("/v2/search/domains")).toBe(4);
      expect(world.clock.slept).toEqual([187.5, 375, 750]);
    });

    it("stops retrying within the time budget", async () => {
      world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 10 });
      const c = client({ retry: { maxAttempts: 10, maxElapsedMs: 1000 }, random: () => 0.5 });
      await expect(c.health()).rejects.toBeInstanceOf(UnavailableError);
      expect(world.clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    });

    it("never re-sends a create whose answer was lost: it raises AmbiguousRequestError", async () => {
      const c = client();
      await registerDomain(c);
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      const error = await rejection<ServiceError>(c.webhooks.create(hook()));
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
        world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status });
        const error = await rejection<ServiceError>(c.webhooks.create(hook()));
        expect(error).toBeInstanceOf(AmbiguousRequestError);
        expect(error).toMatchObject({ code: "ambiguous", status });
        expect(calls("/v2/webhooks")).toBe(1);
      },
    );

    it("retries a safe request whose connection dropped", async () => {
      world.sandbox.addFault({ method: "POST", path: "/v2/search/webhooks", drop: true });
      await client().webhooks.list();
      expect(calls("/v2/search/webhooks")).toBe(2);
    });

    it("reports a refused connection on a create as never sent, not as an unknown outcome", async () => {
      const closed = await startSandbox({ seed: testSeed(world.origin.url) });
      await closed.close();
      const error = await rejection<ServiceError>(
        client({ baseUrl: closed.url, retry: { maxAttempts: 2 } }).webhooks.create(hook()),
      );
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).not.toBeInstanceOf(AmbiguousRequestError);
      // Never sent, so even a create may be tried again.
      expect(world.logs.filter((l) => l.includes("no answer"))).toHaveLength(2);
    });

    it("reports a safe request that got no answer in time as a TimeoutError", async () => {
      world.sandbox.addFault({ method: "GET", path: "/v1/health", delayMs: 2_500 });
      const error = await rejection<ServiceError>(
        client({ timeoutMs: 100, retry: { maxAttempts: 1 } }).health(),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.code).toBe("timeout");
    });

    it("treats a create that got no answer in time as an unknown outcome", async () => {
      const c = client();
      await registerDomain(c);
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_500 });
      const error = await rejection<ServiceError>(client({ timeoutMs: 100 }).webhooks.create(hook()));
      expect(error).toBeInstanceOf(AmbiguousRequestError);
      expect(error.message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
    });
  });

  describe("redaction", () => {
    it("keeps the token, secret_key and register_token out of every log line and error, and nothing else", async () => {
      const c = client();
      const start = await c.domains.startRegistration({ domain_name: HOST });
      world.origin.files.set(`/service_url_registration/${start.verifier}`, {
        status: 200,
        body: start.register_token,
      });
      await c.domains.finishRegistration({ domain_name: HOST, verifier: start.verifier });
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 500 });
      const errors = [
        await rejection<ServiceError>(c.webhooks.create(hook())),
        await rejection<ServiceError>(c.webhooks.create({ ...hook(), channel: "" })),
        await rejection<ServiceError>(client({ token: `${HOOKS_TOKEN}-revoked` }).health()),
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
      errors.push(await rejection<ServiceError>(c.webhooks.retrieve(SECRET)));
      const printed = [
        ...world.logs.map((line) => line),
        ...errors.flatMap((e) => [
          String(e),
          e.stack ?? "",
          JSON.stringify(e),
          JSON.stringify((e as { body?: unknown }).body),
        ]),
      ];
      const all = printed.join("\n");
      expect(all).toContain("/v2/webhooks");
      expect(world.logs.some((l) => l.includes("/v2/webhooks/[REDACTED]"))).toBe(true);
      for (const secret of [HOOKS_TOKEN, SECRET, start.register_token]) expect(all).not.toContain(secret);
      expect(all).toContain("bad secret [REDACTED] for token [REDACTED] and [REDACTED]");
    });
  });
});
