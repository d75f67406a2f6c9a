/**
 * What an answer of the service becomes: the class its status maps to, and a message that names the
 * request, the cause and the next step, with nothing secret in it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  ServiceClient,
  type ServiceError,
  WebhooksNotEnabledError,
} from "../../../provider/client/index";
import { ProcessContext, rememberSecret, setProcessContext } from "../../../provider/context/process";
import { setProgramLanguage } from "../../../provider/context/program-language";
import { adviceFor } from "../../../provider/errors/advice";
import { describeBody, errorFromResponse } from "../../../provider/errors/api";
import type * as source from "../../../provider/errors/index";
import { rejection } from "../../helpers/client-sandbox";
import { PLAIN_TOKEN } from "../../helpers/fixtures";
import { hook, useHooksSandbox } from "../../helpers/hooks-sandbox";
import { printed } from "../../helpers/printed";

const info = { method: "POST", route: "/v2/webhooks" };

beforeEach(() => {
  setProcessContext(new ProcessContext());
});

describe("errorFromResponse", () => {
  it.each([
    [400, undefined, "InvalidRequestError"],
    [403, 403, "InvalidRequestError"],
    [401, undefined, "AuthenticationError"],
    [403, undefined, "NotFoundError"],
    [409, undefined, "ConflictError"],
    [429, undefined, "RateLimitError"],
    [503, undefined, "UnavailableError"],
    [500, undefined, "ServerError"],
    [502, undefined, "ServerError"],
    [599, undefined, "ServerError"],
    [404, undefined, "UnexpectedStatusError"],
    [302, undefined, "UnexpectedStatusError"],
  ])("maps %i (invalid status %s) to %s", (status, invalidStatus, name) => {
    const error = errorFromResponse({ ...info, status, invalidStatus });
    expect(error.name).toBe(name);
    expect(error.status).toBe(status);
  });

  it("states the request, the status, the service's words, the next step and the request id, in that order", () => {
    const error = errorFromResponse({
      ...info,
      status: 409,
      requestId: "req_1",
      body: { error: { message: "quota reached" } },
    });
    expect(error.message).toBe(
      "POST /v2/webhooks answered 409: quota reached. The change conflicts with the organization's current state (10 active webhooks already, or a domain that active webhooks still target): list them and remove what is in the way. (request id req_1)",
    );
    expect(errorFromResponse({ ...info, status: 409 }).message).toMatch(
      /^POST \/v2\/webhooks answered 409\. The change conflicts .* in the way\.$/,
    );
  });

  it.each([
    [401, /give a valid one with the client's `token` option \(or SERVICE_API_TOKEN\)\.$/],
    [403, /check the id and that the token belongs to the organization that owns it\.$/],
    [503, /The service is temporarily unavailable and retries are spent; try again later\.$/],
    [500, /The service failed and retries are spent; try again later\.$/],
    [418, /check that the base URL points at the Service API\.$/],
  ])("tells what to do after a %i", (status, advice) => {
    expect(errorFromResponse({ ...info, status }).message).toMatch(advice);
  });

  it("points a resource's errors at Pulumi config, not at client options", () => {
    setProgramLanguage("nodejs");
    const pulumi = { ...info, advice: adviceFor("pulumi") };
    expect(errorFromResponse({ ...pulumi, status: 401 }).message).toMatch(
      /give a valid one with `pulumi config set --secret service:token <token>` \(or the resource's `connection\.token`\)\.$/,
    );
    expect(errorFromResponse({ ...pulumi, status: 429, budgetSeconds: 30 }).message).toMatch(
      /raise the budget with `pulumi config set service:retryBudgetSeconds <seconds>`\.$/,
    );
  });

  it("names a resource's connection as the program's language spells it, or in every language", () => {
    setProgramLanguage("go");
    expect(errorFromResponse({ ...info, advice: adviceFor("pulumi"), status: 401 }).message).toMatch(
      /\(or the resource's `Connection\.Token`\)\.$/,
    );
    setProgramLanguage(undefined);
    expect(errorFromResponse({ ...info, advice: adviceFor("pulumi"), status: 401 }).message).toMatch(
      /\(or the resource's `connection\.token` \(`Connection\.Token` in Go and C#\)\)\.$/,
    );
  });

  it("lists the fields an invalid request got wrong, or says it was refused as a whole", () => {
    const listed = errorFromResponse({
      ...info,
      status: 400,
      body: {
        errors: [
          { field: "secret_key", message: "too short" },
          { path: "channel", reason: "bad" },
        ],
      },
    });
    expect(listed.message).toMatch(
      /answered 400\. Invalid fields: secret_key too short; channel bad\. Correct them and send the request again\.$/,
    );
    expect((listed as source.InvalidRequestError).fields).toEqual([
      { field: "secret_key", message: "too short" },
      { field: "channel", message: "bad" },
    ]);
    expect(errorFromResponse({ ...info, status: 400 }).message).toMatch(
      /answered 400\. The service refused the request as invalid; correct it and send it again\.$/,
    );
  });

  it("says when a rate-limited request may be tried again, and against which budget", () => {
    const retryAt = new Date(Date.UTC(2030, 0, 1));
    const timed = errorFromResponse({
      ...info,
      status: 429,
      retryAfterSeconds: 45,
      retryAt,
      budgetSeconds: 30,
    }) as source.RateLimitError;
    expect(timed.message).toContain(
      "waiting longer would exceed this request's retry budget of 30 s: try again after 2030-01-01T00:00:00.000Z (the service asked to wait 45 s), or raise the budget with the client's `retry.maxElapsedMs` option (or SERVICE_RETRY_BUDGET_SECONDS).",
    );
    expect(timed).toMatchObject({ retryAfterSeconds: 45, retryAt });
    const untimed = errorFromResponse({ ...info, status: 429 });
    expect(untimed.message).toContain("exceed this request's retry budget: try again in a minute, or raise");
  });

  it("keeps the body and the service's words, with remembered secrets hidden", () => {
    const planted = "planted-secret-0123456789";
    rememberSecret(planted);
    const error = errorFromResponse({
      ...info,
      status: 400,
      body: { message: `bad ${planted}`, fields: { secret_key: [`${planted} weak`, "short"] } },
    }) as source.InvalidRequestError;
    expect(error.serviceMessage).toBe("bad [REDACTED]");
    expect(error.body).toEqual({
      message: "bad [REDACTED]",
      fields: { secret_key: ["[REDACTED] weak", "short"] },
    });
    expect(error.fields).toEqual([{ field: "secret_key", message: "[REDACTED] weak, short" }]);
    expect(error.message).not.toContain(planted);
    // With a secret remembered, an answer without words must still leave serviceMessage undefined.
    expect(errorFromResponse({ ...info, status: 500 }).serviceMessage).toBeUndefined();
  });
});

describe("describeBody", () => {
  it("reads a text body, trimmed and cut at 500 characters, and nothing from an empty one", () => {
    expect(describeBody("  upstream failed \n")).toEqual({ message: "upstream failed", problems: [] });
    expect(describeBody("x".repeat(600)).message).toHaveLength(500);
    expect(describeBody("   ")).toEqual({ message: undefined, problems: [] });
  });

  it("reads nothing from a body that is not an object or a string", () => {
    for (const body of [undefined, null, 42, true]) {
      expect(describeBody(body)).toEqual({ message: undefined, problems: [] });
    }
  });

  it("finds the message in the usual places, the nested error first", () => {
    expect(describeBody({ error: { message: "inner" }, message: "outer" }).message).toBe("inner");
    expect(describeBody({ error: { detail: "inner detail" } }).message).toBe("inner detail");
    expect(describeBody({ message: "outer" }).message).toBe("outer");
    expect(describeBody({ detail: "outer detail" }).message).toBe("outer detail");
    expect(describeBody({ error: "plain" }).message).toBe("plain");
    expect(describeBody({ error: 42, message: 7 }).message).toBeUndefined();
  });

  it("reads field problems from lists and maps, under any of the usual names", () => {
    expect(
      describeBody({
        errors: [
          { param: "limit", detail: "too big" },
          { name: "cursor" },
          { message: "something" },
          { other: 1 },
          "not an object",
          null,
        ],
      }).problems,
    ).toEqual([
      { field: "limit", message: "too big" },
      { field: "cursor", message: "is invalid" },
      { field: "(request)", message: "something" },
    ]);
    expect(describeBody({ error: { fields: { a: ["x", "y"], b: "z" } } }).problems).toEqual([
      { field: "a", message: "x, y" },
      { field: "b", message: "z" },
    ]);
    expect(describeBody({ fields: "not a list" }).problems).toEqual([]);
    expect(describeBody({ errors: null }).problems).toEqual([]);
  });
});

describe("an answer that echoes the token", () => {
  /** Planted where a hostile server echoes it back. */
  const TOKEN = "planted-api-token-9c41e7d2b8";
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

  it("redacts the request id, the body and the message of an answer that echoes the token", async () => {
    const error = await client()
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).requestId).toBe("req-Token [REDACTED]");
    expect(printed(error)).not.toContain(TOKEN);
  });
});

describe("against the sandbox", () => {
  const world = useHooksSandbox();
  const { client, registerDomain } = world;

  it("maps each status to its class, with status, method, route and request id", async () => {
    const c = client();
    await registerDomain(c);
    const elsewhere = { type: "url" as const, value: "https://unregistered.example.com/e" };
    const bad = await rejection<ServiceError>(c.webhooks.create({ ...hook(), endpoint: elsewhere }));
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
    const missing = await rejection<ServiceError>(
      c.webhooks.retrieve("00000000-0000-0000-0000-000000000000"),
    );
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toMatch(/does not exist or belongs to another organization/);
    // Regression: the sandbox's explanation said the same, and the message gave the cause twice.
    expect(missing.message.match(/does not exist/g)).toHaveLength(1);
    expect((missing as NotFoundError).route).toBe("/v2/webhooks/{webhook_uuid}");

    const stranger = {
      ...hook(),
      filters: [...hook().filters, { key: "owner.user.username", value: "nobody" }],
    };
    const v1 = await rejection<ServiceError>(client({ apiVersion: "1.4" }).webhooks.create(stranger));
    expect(v1).toBeInstanceOf(InvalidRequestError);
    expect((v1 as InvalidRequestError).status).toBe(403);

    for (let i = 0; i < 10; i++) await c.webhooks.create(hook(`c${i}`));
    await expect(c.webhooks.create(hook())).rejects.toBeInstanceOf(ConflictError);
    const v1Refused = await rejection<ServiceError>(
      client({ token: PLAIN_TOKEN, apiVersion: "1.4" }).webhooks.create(hook()),
    );
    expect(v1Refused).toBeInstanceOf(WebhooksNotEnabledError);
    const refused = await rejection<ServiceError>(client({ token: PLAIN_TOKEN }).webhooks.list());
    expect(refused).toBeInstanceOf(WebhooksNotEnabledError);
    expect(refused.code).toBe("webhooks_not_enabled");
    expect(refused.message).toMatch(/need an API token with webhooks enabled, which is off by default/);
    expect(refused.message).not.toMatch(/does not exist/);
  });

  it("says the API token is missing or refused, with every word of the advice intact (regression)", async () => {
    const error = await rejection<ServiceError>(client({ token: "wrong-token-123456" }).health());
    expect(error.message).toContain("The API token is missing or was refused");
    expect(error.message).toContain("the client's `token` option (or SERVICE_API_TOKEN)");
    expect(error.message).not.toContain("[REDACTED]");
  });
});
