import { describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  ConnectionError,
  UnexpectedStatusError,
} from "../../../provider/client/index";
import { neverSent, SendFailure } from "../../../provider/client/transport";

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
  it("refuses a 2xx body that is not JSON, or not of the documented shape, naming where", async () => {
    const bodies = ["<html>", JSON.stringify("just a string"), JSON.stringify({ status: 1 })];
    const server = await scripted((_r, index, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(bodies[index]);
    });
    const client = clientOf(server.url);
    const messages = [];
    for (let i = 0; i < bodies.length; i++) messages.push((await failureOf(client.health())).message);
    expect(messages[0]).toBe(
      `GET ${server.url}/v1/health answered with a body the client cannot read: the body is not JSON. Check that the base URL points at the Service API.`,
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
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/health answered 404: no such route\. .* \(request id req_404\)$/,
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
    const error = await failureOf(clientOf(server.url).webhooks.list());
    expect(error.message).toMatch(/cannot read: items\.0\.webhook_uuid Invalid input/);
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
