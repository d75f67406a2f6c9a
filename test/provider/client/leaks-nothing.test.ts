import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  AmbiguousRequestError,
  ConfigurationError,
  ConnectionError,
  ENV,
  InvalidRequestError,
  ServiceClient,
  type ServiceError,
} from "../../../provider/client/index";

/**
 * Regression (issue 18, item 6): only an error's message was redacted. A request id, a cause or a
 * transport detail that carried the token reached util.inspect(error) and JSON.stringify(error); a base
 * URL with `user:password@`, or plain http to another machine, was accepted.
 */
const TOKEN = "planted-api-token-9c41e7d2b8";
const PASSWORD = "planted-url-password-3e8f";

/** Every way an error is commonly printed or shipped. */
const printed = (error: unknown) =>
  [
    inspect(error, { depth: 20, showHidden: true }),
    JSON.stringify(error),
    String(error),
    (error as Error).stack,
  ].join("\n");

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  // A hostile server: it echoes the token in its request id, its body and an error header.
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, {
      "content-type": "application/json",
      "x-request-id": `req-${req.headers.authorization}`,
      "x-echo": String(req.headers.authorization),
    });
    res.end(JSON.stringify({ error: { message: `bad ${req.headers.authorization}`, code: TOKEN } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (options: Record<string, unknown> = {}) =>
  new ServiceClient({ token: TOKEN, baseUrl, rateLimitPerSecond: 0, ...options });

describe("client errors leak nothing", () => {
  it("redacts the request id, the body and the message of an answer that echoes the token", async () => {
    const error = await client()
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).requestId).toBe("req-Token [REDACTED]");
    expect(printed(error)).not.toContain(TOKEN);
  });

  it("redacts the cause chain and the detail of transport errors", () => {
    client();
    const socket = Object.assign(new Error(`connect to /in?token=${TOKEN} failed`), {
      code: "ECONNRESET",
      url: `http://127.0.0.1/in?token=${TOKEN}`,
      cause: new Error(`inner ${TOKEN}`),
    });
    const info = { method: "POST", route: "/v2/webhooks" };
    const errors = [
      new ConnectionError(info, `socket closed for ${TOKEN}`, socket),
      new AmbiguousRequestError(info, `lost ${TOKEN}`, { cause: socket }),
    ];
    for (const error of errors) {
      expect(printed(error)).not.toContain(TOKEN);
      expect((error.cause as { code?: string }).code).toBe("ECONNRESET");
    }
    expect((errors[1] as AmbiguousRequestError).detail).toBe("lost [REDACTED]");
  });

  it("keeps a cause that holds no secret as it is", () => {
    const cause = new Error("socket hang up");
    expect(new ConnectionError({ method: "GET", route: "/v1/health" }, "refused", cause).cause).toBe(cause);
  });
});

describe("the client's base URL", () => {
  it.each([
    ["user:password@", `https://user:${PASSWORD}@api.example.com`, /must not carry credentials/],
    ["a user name alone", `https://${PASSWORD}@api.example.com`, /must not carry credentials/],
    ["plain http to another machine", "http://api.example.com", /must use https/],
    ["plain http to a LAN address", "http://192.168.1.20:8787", /must use https/],
    ["another scheme", "ftp://api.example.com", /must be an http\(s\) URL/],
  ])("refuses %s with a clear error that does not quote it", (_name, url, rule) => {
    for (const make of [
      () => client({ baseUrl: url }),
      () => {
        vi.stubEnv(ENV.baseUrl, url);
        return new ServiceClient({ token: TOKEN });
      },
    ]) {
      let thrown: unknown;
      try {
        make();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect((thrown as ServiceError).message).toMatch(/^The setting baseUrl /);
      expect((thrown as ServiceError).message).toMatch(rule);
      expect(printed(thrown)).not.toContain(PASSWORD);
    }
  });

  it.each([
    "http://127.0.0.1:8787",
    "http://localhost:8787",
    "http://sandbox.localhost:8787",
    "http://127.10.200.30:8787",
    "http://[::1]:8787",
    "https://api.example.com/base",
  ])("accepts %s", (url) => {
    expect(client({ baseUrl: url }).options.baseUrl).toBe(url);
  });
});
