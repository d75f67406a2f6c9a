import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../provider/client/routes";
import { MAX_BODY_BYTES, MAX_JSON_NESTING } from "../../sandbox/index";
import { HOOKS_TOKEN } from "../helpers/fixtures";
import { usePlainSandbox } from "../helpers/plain-sandbox";

/**
 * Regression (issue 18, items 5 and 8): hostile bodies sent to every POST route are answered with the
 * status the spec gives (400, or 413 over the size limit), never 500, and in field-named sentences rather
 * than zod's wording ("Invalid option: expected one of …", "(body) Invalid input: expected object,
 * received array"; test/sandbox/context.test.ts words them). And (issue 18, item 5) 30 MB bodies were read
 * whole and then answered 400, and a 20,000-deep array overflowed the stack of the control-character
 * check, so the request got 500 `internal`.
 */
const plain = usePlainSandbox();

const RAW_ZOD = /Invalid (input|option)|Too (big|small)|Unrecognized key|expected \w+, received/;

const HOSTILE: readonly [string, string, number][] = [
  ["an array", "[]", 400],
  ["a string", '"text"', 400],
  ["a number", "42", 400],
  ["null members", '{"endpoint":null,"secret_key":null,"filters":null,"domain_name":null,"limit":null}', 400],
  [
    "members of the wrong type",
    '{"endpoint":[],"secret_key":7,"filters":{},"limit":"x","cursor":5,"filters2":1}',
    400,
  ],
  ["invalid JSON", '{"a":', 400],
  ["a 20,000-deep array", `${"[".repeat(20_000)}${"]".repeat(20_000)}`, 400],
  [
    "a control character",
    '{"domain_name":"a\\u0000.example","endpoint":{"type":"url","value":"https://x.example/\\r\\n"}}',
    400,
  ],
  ["a body over the limit", " ".repeat(MAX_BODY_BYTES + 1), 413],
];

const POST_ROUTES = Object.values(ROUTES)
  .filter((r) => r.method === "POST" && !r.path.includes("{"))
  .map((r) => ({ path: r.path, version: r.accepts[0]! }));
const ADMIN_POSTS = ["/_sandbox/sessions", "/_sandbox/faults"];

describe("hostile request bodies", () => {
  it.each(HOSTILE)(
    "%s: every POST route answers as the spec says, never 500",
    async (_name, rawBody, expected) => {
      const statuses: string[] = [];
      for (const { path, version } of POST_ROUTES) {
        const response = await plain.api("POST", path, { rawBody, version });
        // A search route reads a body that is not an object as no filters at all; anything but 500 is allowed
        // there for the shapes it tolerates, and the size and nesting limits hold everywhere.
        statuses.push(`${path} ${response.status}`);
        expect(response.status, path).not.toBe(500);
        if (expected === 413 || rawBody.startsWith("[[[") || rawBody.startsWith('{"a":')) {
          expect(response.status, path).toBe(expected);
        }
        expect(JSON.stringify(response.json), path).not.toMatch(RAW_ZOD);
      }
      for (const path of ADMIN_POSTS) {
        const response = await plain.api("POST", path, { rawBody });
        expect(response.status, path).toBe(expected);
        expect(JSON.stringify(response.json), path).not.toMatch(RAW_ZOD);
      }
      expect(statuses).toHaveLength(POST_ROUTES.length);
    },
  );
});

/**
 * Streams `bytes` of body in 64 KiB chunks without ever ending the request, and resolves with the status
 * as soon as the sandbox answers: a sandbox that waited for the whole body would never answer.
 */
function streamWithoutEnd(
  path: string,
  bytes: number,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<{ status: number; written: number }> {
  const { port } = new URL(plain.sandbox.url);
  return new Promise((resolve, reject) => {
    let written = 0;
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: {
          "content-type": "application/json",
          authorization: `Token ${HOOKS_TOKEN}`,
          "api-version": "2.0",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, written });
        req.destroy();
      },
    );
    req.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // Bounded: at most `bytes` in whole chunks; the request is never ended.
    for (let i = 0; written < bytes && i < 1000; i++) {
      req.write(chunk);
      written += chunk.length;
    }
  });
}

describe("request body size", () => {
  it("states its limit: 1 MiB", () => {
    expect(MAX_BODY_BYTES).toBe(1_048_576);
  });

  it.each(["/v2/webhooks", "/_sandbox/sessions", "/_sandbox/faults", "/no/such/route"])(
    "refuses a streamed body over the limit on %s with 413 before it ends",
    async (path) => {
      const { status } = await streamWithoutEnd(path, MAX_BODY_BYTES + 128 * 1024);
      expect(status).toBe(413);
    },
  );

  it("refuses a declared Content-Length of 30 MB at once, with 413 and a readable error", async () => {
    const { status, written } = await streamWithoutEnd("/v2/search/webhooks", 64 * 1024, {
      "content-length": String(30 * 1024 * 1024),
    });
    expect(status).toBe(413);
    expect(written).toBeLessThan(MAX_BODY_BYTES);
  });

  it.each(["/_sandbox/state", "/v1/health"])(
    "refuses a GET to %s that declares a body over the limit",
    async (path) => {
      const { status } = await streamWithoutEnd(
        path,
        64 * 1024,
        {
          "content-length": String(30 * 1024 * 1024),
        },
        "GET",
      );
      expect(status).toBe(413);
    },
  );

  it("names the limit in the answer", async () => {
    const response = await plain.api("POST", "/v2/webhooks", { rawBody: " ".repeat(MAX_BODY_BYTES + 1) });
    expect(response.status).toBe(413);
    expect(response.json.error).toMatchObject({ code: "body_too_large" });
    expect(response.json.error.message).toContain(`${MAX_BODY_BYTES} bytes`);
  });

  it("reads a body of exactly the limit", async () => {
    const body = JSON.stringify({ limit: 5 });
    const response = await plain.api("POST", "/v2/search/webhooks", {
      rawBody: body + " ".repeat(MAX_BODY_BYTES - body.length),
    });
    expect(response.status).toBe(200);
  });
});

describe("JSON nesting", () => {
  const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

  it("states its limit: 64 levels", () => {
    expect(MAX_JSON_NESTING).toBe(64);
  });

  it.each(["/v2/webhooks", "/v2/search/authentications", "/_sandbox/sessions", "/_sandbox/faults"])(
    "answers a 20,000-deep array on %s with 400 naming the limit, not 500",
    async (path) => {
      const response = await plain.api("POST", path, { rawBody: nested(20_000) });
      expect(response.status).toBe(400);
      expect(response.json.error.message).toBe(
        "invalid parameters: (body) nests arrays and objects more than 64 levels deep; the sandbox reads at most 64",
      );
    },
  );

  it("reads 64 levels, and refuses 65, brackets inside strings not counted", async () => {
    const deep = (depth: number) =>
      JSON.stringify({ limit: 5, extra: JSON.parse(nested(depth - 1)), note: "[[[[{{{{" });
    const at = await plain.api("POST", "/v2/search/webhooks", { rawBody: deep(MAX_JSON_NESTING) });
    expect(at.status).toBe(200);
    const over = await plain.api("POST", "/v2/search/webhooks", { rawBody: deep(MAX_JSON_NESTING + 1) });
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/more than 64 levels/);
  });
});
