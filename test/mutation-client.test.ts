import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveHost } from "../provider/api/domains/hosts";
import {
  VERIFICATION_PATH_PATTERN,
  verificationKey,
  verificationUrl,
} from "../provider/api/domains/verification";
import { describeObservation, fetchVerificationFile } from "../provider/api/domains/verification-fetch";
import { resolveOptions } from "../provider/client/config";
import {
  AmbiguousRequestError,
  ConfigurationError,
  ConnectionError,
  RateLimitError,
  ResponseValidationError,
  ServiceClient,
  UnexpectedStatusError,
} from "../provider/client/index";
import { LimiterRegistry, RateLimiter } from "../provider/client/limiter";
import { DEFAULT_RETRY_POLICY, retryDelay } from "../provider/client/retry";
import { isTimeout, neverSent, SendFailure } from "../provider/client/transport";
import { ProcessContext, processContext, setProcessContext } from "../provider/context/process";
import { activeWebhooks } from "../provider/runtime/listings";
import { stackSettings } from "../provider/runtime/stack-config";
import { awaitCandidates, candidates } from "../provider/webhook/reconcile";
import { identityOf } from "../provider/webhook/schema";
import { steppingClock } from "./helpers/fake-clock";

/**
 * Tests that kill mutants the rest of the suite let live (npm run mutation), or killed only by running
 * into a timeout. Each names the behaviour it guards.
 */
const TOKEN = "token-0123456789";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A server that answers each request with `answer(request, index)`, and records what it was sent. */
async function scripted(answer: (request: Seen, index: number, res: ServerResponse) => unknown) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      seen.push(request);
      const out = answer(request, seen.length - 1, res);
      if (out === undefined) return;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const opened = {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(opened);
  return opened;
}

let servers: { close(): Promise<void> }[] = [];
let clock: ReturnType<typeof steppingClock>;

const CREATE = {
  endpoint: { type: "url" as const, value: "https://hooks.example.com/e" },
  secret_key: "s".repeat(20),
  filters: [{ key: "activity.name", value: "authentication" }],
};

const hook = (n: number) => ({
  webhook_uuid: `hook-${n}`,
  endpoint: { type: "url", value: "https://hooks.example.com/e" },
  filters: [],
});

beforeEach(() => {
  clock = steppingClock(1_700_000_000_000);
  // The provider's re-listing reads the process's clock; the clients get the same one in their options.
  setProcessContext(new ProcessContext({ clock }));
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const clientOf = (url: string, options: ConstructorParameters<typeof ServiceClient>[0] = {}) =>
  new ServiceClient({
    token: TOKEN,
    baseUrl: url,
    rateLimitPerSecond: 0,
    clock: clock.now,
    sleep: clock.sleep,
    ...options,
  });

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure, and the call succeeded");
}

describe("paging", () => {
  /** Answers webhook searches one item a page; the page asked for with cursor c (or none: "start") points to next[c]. */
  const pager = (next: Record<string, string | null>, stopAfter = 10) =>
    scripted((request, index) => {
      const cursor = (JSON.parse(request.body) as { cursor: string | null }).cursor;
      // Past `stopAfter` pages the listing ends, so that a client without its guard still stops soon.
      return {
        items: [hook(index + 1)],
        next_cursor: index + 1 >= stopAfter ? null : next[cursor ?? "start"],
      };
    });
  const cursorsOf = (seen: Seen[]) =>
    seen.map((s) => (JSON.parse(s.body) as { cursor: string | null }).cursor);

  it("stops at the first cursor that comes back, even after another one in between (regression)", async () => {
    const server = await pager({ start: "a", a: "b", b: "a" });
    const listed: string[] = [];
    const error = await failureOf(
      (async () => {
        for await (const h of clientOf(server.url).webhooks()) listed.push(h.webhook_uuid);
      })(),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe(
      'POST /v2/search/webhooks answered with a body the client cannot read: the cursor "a" came back a second time, which would page forever. Check that the base URL points at the Service API.',
    );
    // Three pages: start, a, b; b points back at a, which is not asked for again.
    expect(cursorsOf(server.seen)).toEqual([null, "a", "b"]);
    expect(listed).toEqual(["hook-1", "hook-2", "hook-3"]);
  });

  it("follows distinct cursors to the end, with the page size asked for on every page", async () => {
    const server = await pager({ start: "a", a: "b", b: "c", c: null });
    const listed: string[] = [];
    for await (const h of clientOf(server.url).webhooks({ limit: 3 })) listed.push(h.webhook_uuid);
    expect(cursorsOf(server.seen)).toEqual([null, "a", "b", "c"]);
    expect(listed).toEqual(["hook-1", "hook-2", "hook-3", "hook-4"]);
    expect(server.seen.every((s) => JSON.parse(s.body).limit === 3)).toBe(true);
  });

  it("passes the page size to every page of a domain listing too", async () => {
    const server = await scripted((_request, index) => ({
      items: [{ domain_uuid: `d${index}`, domain_name: `h${index}.example.com` }],
      next_cursor: index === 0 ? "next" : null,
    }));
    const names: string[] = [];
    for await (const d of clientOf(server.url).domains({ limit: 1 })) names.push(d.domain_name);
    expect(names).toEqual(["h0.example.com", "h1.example.com"]);
    expect(server.seen.map((s) => JSON.parse(s.body))).toEqual([
      { limit: 1, cursor: null },
      { limit: 1, cursor: "next" },
    ]);
  });

  it("hands back the service's next cursor, and null at the end", async () => {
    const server = await scripted((_r, index) => ({
      items: [],
      next_cursor: index === 0 ? "more" : undefined,
    }));
    const client = clientOf(server.url);
    expect((await client.searchWebhooks()).next_cursor).toBe("more");
    expect((await client.searchWebhooks()).next_cursor).toBeNull();
    expect((await client.searchDomains()).next_cursor).toBeNull();
  });

  it("accepts page sizes from 1 to the version's maximum, and refuses others before sending", async () => {
    const server = await scripted(() => ({ items: [] }));
    const v2 = clientOf(server.url);
    const v1 = clientOf(server.url, { apiVersion: "1.4" });
    await v2.searchWebhooks({ limit: 1 });
    await v2.searchWebhooks({ limit: 20 });
    await v1.searchDomains({ limit: 25 });
    expect(server.seen).toHaveLength(3);
    for (const [client, limit] of [
      [v2, 0],
      [v2, 21],
      [v1, 26],
      [v2, 2.5],
    ] as const) {
      const error = await failureOf(client.searchWebhooks({ limit }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toMatch(
        /^POST \/v(2|1)\/search\/webhooks was not sent: limit must be an integer from 1 to (20|25)\. /,
      );
    }
    expect(server.seen).toHaveLength(3);
  });
});

describe("answers", () => {
  it("refuses a 2xx body that is not JSON, or not of the documented shape, naming where", async () => {
    const bodies = ["<html>", JSON.stringify("just a string"), JSON.stringify({ status: 1 })];
    const server = await scripted((_r, index, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(bodies[index]);
    });
    const client = clientOf(server.url);
    const messages = [];
    for (let i = 0; i < bodies.length; i++) messages.push((await failureOf(client.health())).message);
    expect(messages[0]).toBe(
      "GET /v1/health answered with a body the client cannot read: the body is not JSON. Check that the base URL points at the Service API.",
    );
    expect(messages[1]).toMatch(/cannot read: \(body\) Invalid input/);
    expect(messages[2]).toMatch(/cannot read: status Invalid input/);
  });

  it("reports a status it has no meaning for as UnexpectedStatusError, with the service's request id", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(404, { "request-id": "req_404" }).end("no such route");
    });
    const error = await failureOf(clientOf(server.url).health());
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error.message).toMatch(
      /^GET \/v1\/health answered 404: no such route\. .* \(request id req_404\)$/,
    );
  });

  it("parses only 2xx answers: a 300 is a status it has no meaning for", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(300, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok" }));
    });
    expect(await failureOf(clientOf(server.url).health())).toBeInstanceOf(UnexpectedStatusError);
  });

  it("names the path inside the body that does not have the documented shape", async () => {
    const server = await scripted(() => ({
      items: [{ endpoint: { type: "url", value: "https://h.example.com/e" } }],
    }));
    const error = await failureOf(clientOf(server.url).searchWebhooks());
    expect(error.message).toMatch(/cannot read: items\.0\.webhook_uuid Invalid input/);
  });

  it("says a 5xx to a create leaves its outcome unknown, naming the status", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(502).end();
    });
    const error = await failureOf(clientOf(server.url).createWebhook(CREATE));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toContain("(the service answered 502)");
    expect(server.seen).toHaveLength(1);
  });

  it("keeps the failed send as the cause of a lost create, down to the socket's error", async () => {
    const server = await scripted((_r, _i, res) => {
      res.socket?.destroy();
    });
    const error = await failureOf(clientOf(server.url).createWebhook(CREATE));
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
    await client.searchWebhooks({ limit: 2 });
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

describe("rate limiting", () => {
  it("holds every caller of a token while the service's Retry-After runs, even past the budget", async () => {
    const server = await scripted((_r, index, res) => {
      if (index === 0) {
        res.writeHead(429, { "retry-after": "45" }).end();
        return undefined;
      }
      return { status: "ok" };
    });
    const limiter = new RateLimiter(100, clock);
    const client = clientOf(server.url, { limiter, retry: { maxElapsedMs: 30_000 } });
    const started = clock.now();
    const error = (await failureOf(client.health())) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBe(45);
    expect(error.retryAt).toEqual(new Date(started + 45_000));
    expect(clock.slept).toEqual([]);
    // The next call of the same token waits for the pause to end before it is sent.
    await clientOf(server.url, { limiter }).health();
    expect(clock.slept).toEqual([45_000]);
  });

  it("backs off after a 429 without Retry-After, and says nothing about when", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(429).end();
    });
    const error = (await failureOf(
      clientOf(server.url, { retry: { maxElapsedMs: 100 }, random: () => 0 }).health(),
    )) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(error.retryAt).toBeUndefined();
  });

  it("keeps one limiter per token: another token's calls do not wait", async () => {
    const server = await scripted(() => ({ status: "ok" }));
    const limiters = new LimiterRegistry(clock);
    const of = (token: string) =>
      clientOf(server.url, {
        token,
        limiter: limiters.limiterFor({ token, baseUrl: server.url, perSecond: 1 }),
      });
    await Promise.all([of(`${TOKEN}-a`).health(), of(`${TOKEN}-b`).health()]);
    expect(clock.slept).toEqual([]);
    // The same token's second call waits for the first one's slot.
    await of(`${TOKEN}-a`).health();
    expect(clock.slept).toHaveLength(1);
  });
});

describe("RateLimiter", () => {
  it("waits out a pause from wherever the clock stands", async () => {
    const limiter = new RateLimiter(10, clock);
    limiter.pauseUntil(clock.now() + 3_000);
    limiter.pauseUntil(clock.now() + 1_000);
    await limiter.acquire();
    expect(clock.slept).toEqual([3_000]);
  });

  it("counts a slot from its first release: releasing it again changes nothing", async () => {
    const limiter = new RateLimiter(1, clock);
    const release = await limiter.acquire();
    release();
    await clock.sleep(500);
    release();
    await limiter.acquire();
    // Free again 1005 ms after the first release, not after the second.
    expect(clock.slept).toEqual([500, 505]);
  });
});

describe("retryDelay", () => {
  it("allows a wait that ends exactly at the budget", () => {
    const failure = { kind: "rate_limited" as const, retryAfterMs: 1_000 };
    const input = { attempt: 1, elapsedMs: 59_000, failure, retrySafe: true, random: 0 };
    expect(retryDelay(DEFAULT_RETRY_POLICY, input)).toBe(1_000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, { ...input, elapsedMs: 59_001 })).toBeUndefined();
  });
});

describe("resolveOptions", () => {
  const env = (values: Record<string, string>) => values as NodeJS.ProcessEnv;

  it("takes each setting from the option, else the environment, else the default; empty means unset", () => {
    const fromEnv = resolveOptions(
      { token: "" },
      env({
        SERVICE_API_TOKEN: TOKEN,
        SERVICE_BASE_URL: "https://api.example.com//",
        SERVICE_API_VERSION: "",
      }),
    );
    expect(fromEnv).toMatchObject({
      token: TOKEN,
      baseUrl: "https://api.example.com",
      baseUrlDefaulted: false,
      apiVersion: "2.0",
      acceptLanguage: "en",
      timeoutMs: 30_000,
      rateLimitPerSecond: 10,
    });
    expect(fromEnv.retry.maxElapsedMs).toBe(60_000);
    const defaulted = resolveOptions({ token: TOKEN }, env({ SERVICE_BASE_URL: "" }));
    expect(defaulted).toMatchObject({ baseUrl: "http://127.0.0.1:8787", baseUrlDefaulted: true });
    const explicit = resolveOptions(
      { token: TOKEN, baseUrl: "https://x.example.com", timeoutMs: 5, rateLimitPerSecond: 0 },
      env({
        SERVICE_BASE_URL: "https://y.example.com",
        SERVICE_TIMEOUT_SECONDS: "9",
        SERVICE_RATE_LIMIT: "3",
      }),
    );
    expect(explicit).toMatchObject({ baseUrl: "https://x.example.com", timeoutMs: 5, rateLimitPerSecond: 0 });
    expect(
      resolveOptions({ token: TOKEN }, env({ SERVICE_TIMEOUT_SECONDS: "9", SERVICE_RATE_LIMIT: "3" })),
    ).toMatchObject({ timeoutMs: 9_000, rateLimitPerSecond: 3 });
  });

  it("says how to set a missing token, in the terms of where the client was made", () => {
    expect(() => resolveOptions({}, env({}))).toThrow(
      "No API token was given: set one with the client's `token` option (or SERVICE_API_TOKEN).",
    );
    expect(() => resolveOptions({ advice: "pulumi" }, env({}))).toThrow(
      "No API token was given: set one with `pulumi config set --secret service:token <token>` (or the resource's `connection.token`).",
    );
  });

  it.each([
    [
      { token: "t\u0001x" },
      "The setting token must not contain control characters (found U+0001 at position 1): correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, acceptLanguage: "fr" },
      "The setting acceptLanguage must be en or ja: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, baseUrl: "ftp://x.example.com" },
      "The setting baseUrl must be an http(s) URL: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, timeoutMs: 1.5 },
      "The setting timeoutMs must be whole milliseconds: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, timeoutMs: 0 },
      "The setting timeoutMs must be positive: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, timeoutMs: Number.NaN },
      "The setting timeoutMs must be a number: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, rateLimitPerSecond: -1 },
      "The setting rateLimitPerSecond must be 0 (off) or more: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, rateLimitPerSecond: Number.NaN },
      "The setting rateLimitPerSecond must be a number: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, retry: { maxElapsedMs: 0 } },
      "The setting retryBudgetMs must be positive: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, retry: { maxElapsedMs: Number.NaN } },
      "The setting retryBudgetMs must be a number: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
  ])("refuses %j, saying which setting and why", (options, message) => {
    const error = (() => {
      try {
        resolveOptions(options as never, env({}));
      } catch (e) {
        return e as Error;
      }
      throw new Error("accepted");
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(message);
  });

  it("remembers the token as a secret, and logs to stderr when SERVICE_DEBUG is set", () => {
    const options = resolveOptions({ token: TOKEN }, env({ SERVICE_DEBUG: "1" }));
    expect(processContext().secrets.redact(`a ${TOKEN} b`)).toBe("a [REDACTED] b");
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      options.logger!("one line");
      expect(write).toHaveBeenCalledWith("one line\n");
    } finally {
      write.mockRestore();
    }
    expect(resolveOptions({ token: TOKEN }, env({})).logger).toBeUndefined();
  });
});

describe("neverSent and isTimeout", () => {
  const coded = (code: string, depth: number): unknown => {
    let error: unknown = Object.assign(new Error(code), { code });
    for (let i = 0; i < depth; i++) error = new Error("wrapped", { cause: error });
    return error;
  };

  it.each([
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "UND_ERR_CONNECT_TIMEOUT",
  ])("knows %s means nothing was sent, up to three causes deep", (code) => {
    for (const depth of [0, 3]) expect(neverSent(coded(code, depth))).toBe(true);
    expect(neverSent(coded(code, 4))).toBe(false);
  });

  it.each(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"])(
    "knows %s is a timeout, wherever it stands in the chain",
    (code) => {
      expect(isTimeout(coded(code, 2))).toBe(true);
      // A wrapper with a code of its own must not hide the timeout below it.
      expect(
        isTimeout(Object.assign(new Error("outer"), { code: "ECONNRESET", cause: coded(code, 0) })),
      ).toBe(true);
    },
  );

  it("treats other failures as possibly sent and not timed out", () => {
    for (const error of [
      coded("ECONNRESET", 0),
      coded("UND_ERR_SOCKET", 1),
      new Error("plain"),
      undefined,
      "x",
    ]) {
      expect(neverSent(error)).toBe(false);
      expect(isTimeout(error)).toBe(false);
    }
  });
});

describe("the verification file", () => {
  it("is addressed at the spec's path, and published under that path as its key", () => {
    const url = verificationUrl("hooks.example.com", "v/1 2");
    expect(url).toBe("https://hooks.example.com/service_url_registration/v%2F1%202");
    expect(verificationKey(url)).toBe("service_url_registration/v%2F1%202");
    expect(verificationKey("https://h.example.com//a/b")).toBe("a/b");
    expect(VERIFICATION_PATH_PATTERN).toBe("/service_url_registration/*");
  });

  it("is fetched from a stand-in origin when the hostname has one, keeping the path and query", () => {
    const hosts = { "hooks.example.com": "http://127.0.0.1:9000//" };
    expect(resolveHost("https://hooks.example.com/a/b?c=d", hosts)).toBe("http://127.0.0.1:9000/a/b?c=d");
    expect(resolveHost("https://other.example.com/a", hosts)).toBe("https://other.example.com/a");
  });

  it("describes every observation without repeating the body", () => {
    expect(describeObservation({ kind: "ok" })).toBe("the URL served exactly the register token");
    expect(describeObservation({ kind: "status", status: 404 })).toBe("the URL answered 404");
    expect(describeObservation({ kind: "redirect", status: 301, location: "/x" })).toBe(
      "the URL answered a 301 redirect to /x, and the service follows no redirect",
    );
    expect(describeObservation({ kind: "redirect", status: 302, location: null })).toBe(
      "the URL answered a 302 redirect, and the service follows no redirect",
    );
    expect(describeObservation({ kind: "mismatch", bytes: 7 })).toBe(
      "the URL answered 200 with a 7-byte body that is not exactly the register token",
    );
    expect(describeObservation({ kind: "unreachable", message: "boom" })).toBe(
      "the URL could not be fetched (boom)",
    );
  });

  it("sees exactly what the URL served: the token, another body, a redirect, another status", async () => {
    const answers: [number, Record<string, string>, string][] = [
      [200, {}, "the-token"],
      [200, {}, "the-token\n"],
      [300, { location: "/elsewhere" }, ""],
      [399, {}, ""],
      [400, {}, "the-token"],
      // Answers without a body at all.
      [304, {}, ""],
      [204, {}, ""],
    ];
    const server = await scripted((_r, index, res) => {
      const [status, headers, body] = answers[index]!;
      res.writeHead(status, headers).end(body);
    });
    const hosts = { "hooks.example.com": server.url };
    const observe = () => fetchVerificationFile("https://hooks.example.com/f", "the-token", { hosts });
    expect(await observe()).toEqual({ kind: "ok" });
    expect(await observe()).toEqual({ kind: "mismatch", bytes: 10 });
    expect(await observe()).toEqual({ kind: "redirect", status: 300, location: "/elsewhere" });
    expect(await observe()).toEqual({ kind: "redirect", status: 399, location: null });
    expect(await observe()).toEqual({ kind: "status", status: 400 });
    expect(await observe()).toEqual({ kind: "redirect", status: 304, location: null });
    expect(await observe()).toEqual({ kind: "status", status: 204 });
    expect(server.seen.every((s) => s.headers["cache-control"] === "no-cache")).toBe(true);
  });

  it("gives up on a URL that does not answer within the timeout, or cannot be reached", async () => {
    const server = await scripted((_r, _i, res) => {
      setTimeout(() => res.end("late"), 2_000).unref();
    });
    const slow = await fetchVerificationFile(`${server.url}/f`, "t", { timeoutMs: 100 });
    expect(slow.kind).toBe("unreachable");
    const closed = await scripted(() => ({}));
    await closed.close();
    const refused = await fetchVerificationFile(`${closed.url}/f`, "t");
    expect(refused).toMatchObject({ kind: "unreachable", message: expect.any(String) });
  });
});

describe("re-listing after a lost create", () => {
  const identity = identityOf({ endpoint: "https://hooks.example.com/e", channel: "default", filters: [] });
  /** Lists nothing `emptyFor` times, then a webhook matching `identity`, created now. */
  const listing = (emptyFor: number) =>
    scripted((_r, index) => ({
      items:
        index < emptyFor
          ? []
          : [{ ...hook(1), channel: "default", create_time: { display: "", epoch: clock.now() / 1000 } }],
    }));

  it("lists afresh at growing intervals until the webhook appears, keeping the time it was given", async () => {
    const server = await listing(2);
    const client = clientOf(server.url);
    const since = clock.now() - 1_000;
    const { found, since: kept } = await awaitCandidates(
      { client, identity, exclude: [], sentAtLocal: clock.now(), since },
      30_000,
    );
    expect(found?.map((h) => h.webhookUuid)).toEqual(["hook-1"]);
    expect(kept).toBe(since);
    expect(server.seen).toHaveLength(3);
    expect(clock.slept).toEqual([1_000, 2_000]);
  });

  it("keeps the time it was given when no listing succeeds at all", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(500).end();
    });
    const since = clock.now() - 1_000;
    const result = await awaitCandidates(
      { client: clientOf(server.url), identity, exclude: [], sentAtLocal: clock.now(), since },
      0,
    );
    expect(result).toEqual({ found: undefined, since });
  });

  it("looks at a fresh listing, not one cached before the create", async () => {
    const server = await listing(1);
    const client = clientOf(server.url);
    expect(await activeWebhooks(client)).toEqual([]);
    const found = await candidates({ client, identity, exclude: [], since: clock.now() - 1_000 });
    expect(found.map((h) => h.webhookUuid)).toEqual(["hook-1"]);
  });

  it("stops at the end of its window, having waited no longer than the window", async () => {
    const server = await listing(10);
    const { found } = await awaitCandidates(
      { client: clientOf(server.url), identity, exclude: [], sentAtLocal: clock.now() },
      2_500,
    );
    expect(found).toEqual([]);
    expect(clock.slept).toEqual([1_000, 1_500]);
    expect(server.seen).toHaveLength(3);
  });
});

describe("the process context", () => {
  it("is one per process, whichever copy of the package asks for it", () => {
    const builtCopy =
      require("../dist/provider/context/process.js") as typeof import("../provider/context/process");
    expect(builtCopy.processContext()).toBe(processContext());
  });

  it("holds one of each state when the runtime bundle and the package are both loaded (regression)", () => {
    setProcessContext(new ProcessContext());
    const bundle = require("@service/pulumi/runtime") as typeof import("../provider/runtime-entry");
    expect(require.resolve("@service/pulumi/runtime")).toMatch(/dist[\\/]runtime[\\/]index\.js$/);
    bundle.configure({ get: (key) => ({ "service:baseUrl": "https://api.example.com" })[key] });
    // The package's own copy (from source here) sees what the bundle's `configure` stored.
    expect(stackSettings().baseUrl).toBe("https://api.example.com");
  });
});
