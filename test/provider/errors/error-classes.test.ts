/**
 * The error hierarchy is part of the contract: callers match on `code`, `instanceof` must work across two
 * copies of the package, and each message names the request, the cause and the next step. These tests
 * pin each of those for every class, where the client tests only reach the classes a sandbox can provoke.
 */

import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ProcessContext,
  processContext,
  rememberSecret,
  setProcessContext,
} from "../../../provider/context/process";
import { setProgramLanguage } from "../../../provider/context/program-language";
import { adviceFor } from "../../../provider/errors/advice";
import { describeBody, errorFromResponse } from "../../../provider/errors/api";
import * as source from "../../../provider/errors/index";

type Errors = typeof source;
/** The built copy, as a serialized provider loads it next to the program's copy. */
const built = require("../../../dist/provider/errors/index.js") as Errors;

const info = { method: "POST", route: "/v2/webhooks" };
const fields = { ...info, status: 400 };

/** One instance of each class, built from a given copy of the module, and its stable code. */
const FACTORIES: Record<string, { make: (m: Errors) => Error; code: string; parent: string | undefined }> = {
  ServiceError: {
    make: (m) => new m.ServiceError("configuration", "x"),
    code: "configuration",
    parent: undefined,
  },
  ConfigurationError: {
    make: (m) => new m.ConfigurationError("x"),
    code: "configuration",
    parent: "ServiceError",
  },
  ApiError: {
    make: (m) => new m.ApiError("conflict", fields, "hint"),
    code: "conflict",
    parent: "ServiceError",
  },
  InvalidRequestError: {
    make: (m) => new m.InvalidRequestError({ ...fields, problems: [] }),
    code: "invalid_request",
    parent: "ApiError",
  },
  AuthenticationError: {
    make: (m) => new m.AuthenticationError({ ...fields, status: 401 }),
    code: "authentication",
    parent: "ApiError",
  },
  NotFoundError: {
    make: (m) => new m.NotFoundError({ ...fields, status: 403 }),
    code: "not_found",
    parent: "ApiError",
  },
  ConflictError: {
    make: (m) => new m.ConflictError({ ...fields, status: 409 }),
    code: "conflict",
    parent: "ApiError",
  },
  RateLimitError: {
    make: (m) => new m.RateLimitError({ ...fields, status: 429, retryAfterSeconds: 3 }),
    code: "rate_limited",
    parent: "ApiError",
  },
  UnavailableError: {
    make: (m) => new m.UnavailableError({ ...fields, status: 503 }),
    code: "unavailable",
    parent: "ApiError",
  },
  ServerError: {
    make: (m) => new m.ServerError({ ...fields, status: 500 }),
    code: "server_error",
    parent: "ApiError",
  },
  UnexpectedStatusError: {
    make: (m) => new m.UnexpectedStatusError({ ...fields, status: 418 }),
    code: "unexpected_status",
    parent: "ApiError",
  },
  TransportError: {
    make: (m) => new m.TransportError("timeout", info, "lost"),
    code: "timeout",
    parent: "ServiceError",
  },
  ConnectionError: {
    make: (m) => new m.ConnectionError(info, "refused"),
    code: "connection",
    parent: "TransportError",
  },
  TimeoutError: { make: (m) => new m.TimeoutError(info, "slow"), code: "timeout", parent: "TransportError" },
  AmbiguousRequestError: {
    make: (m) => new m.AmbiguousRequestError(info, "lost"),
    code: "ambiguous",
    parent: "ServiceError",
  },
  ResponseValidationError: {
    make: (m) => new m.ResponseValidationError(info, "bad"),
    code: "invalid_response",
    parent: "ServiceError",
  },
  LifecycleError: {
    make: (m) => new m.LifecycleError("quota_reached", "full"),
    code: "quota_reached",
    parent: "ServiceError",
  },
  PendingCreateError: {
    make: (m) => new m.PendingCreateError("pending", "pending-1", {}),
    code: "outcome_unknown",
    parent: "LifecycleError",
  },
};

function ancestors(name: string): string[] {
  const chain: string[] = [];
  for (let n: string | undefined = name; n !== undefined; n = FACTORIES[n]!.parent) chain.push(n);
  return chain;
}

beforeEach(() => {
  setProcessContext(new ProcessContext());
});

describe("every error class", () => {
  it("is recognised by instanceof from either copy of the module, as itself and its ancestors only", () => {
    for (const [name, { make }] of Object.entries(FACTORIES)) {
      for (const from of [source, built]) {
        const error = make(from);
        for (const other of Object.keys(FACTORIES)) {
          const expected = ancestors(name).includes(other);
          for (const against of [source, built]) {
            const Class = (against as unknown as Record<string, new (...args: never[]) => unknown>)[other]!;
            expect({ error: name, other, result: error instanceof Class }).toEqual({
              error: name,
              other,
              result: expected,
            });
          }
        }
      }
    }
  });

  it("answers instanceof with false for anything that is not an error object", () => {
    for (const value of [null, undefined, "ServiceError", 42, {}, new Error("plain")]) {
      expect(value instanceof source.ServiceError).toBe(false);
    }
  });

  it("keeps its brand out of print", () => {
    const printed = inspect(new source.NotFoundError({ ...fields, status: 403 }));
    expect(printed).not.toContain("error-kinds");
  });

  it("carries its stable code and its class name", () => {
    for (const [name, { make, code }] of Object.entries(FACTORIES)) {
      const error = make(source) as source.ServiceError;
      expect({ name: error.name, code: error.code }).toEqual({ name, code });
    }
    expect(new source.PendingCreateError("m", "id", {}, { code: "reconcile_conflict" }).code).toBe(
      "reconcile_conflict",
    );
  });
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

describe("transport and lifecycle errors", () => {
  it("name the request and keep the cause", () => {
    const cause = new Error("socket hang up");
    const connection = new source.ConnectionError(info, "refused", cause);
    expect(connection.message).toBe("POST /v2/webhooks failed: refused");
    expect(connection).toMatchObject({ method: "POST", route: "/v2/webhooks", cause });
    expect(new source.TimeoutError(info, "slow", cause).cause).toBe(cause);
    const ambiguous = new source.AmbiguousRequestError(info, "lost", { cause, status: 502 });
    expect(ambiguous.message).toBe(
      "POST /v2/webhooks was sent but its outcome is unknown (lost). It may have been applied, so it was not re-sent: list what exists before sending it again.",
    );
    expect(ambiguous).toMatchObject({ status: 502, cause, method: "POST", route: "/v2/webhooks" });
    expect(new source.ResponseValidationError(info, "no items").message).toBe(
      "POST /v2/webhooks answered with a body the client cannot read: no items. Check that the base URL points at the Service API.",
    );
  });

  it("keep a pending create's properties readable but out of print", () => {
    const error = new source.PendingCreateError("create pending", "pending-1", { token: "t" }, { cause: 1 });
    expect(error).toMatchObject({ id: "pending-1", reasons: ["create pending"], cause: 1 });
    expect(error.properties).toEqual({ token: "t" });
    expect(Object.keys(error)).not.toContain("properties");
    expect(JSON.stringify(error)).not.toContain("token");
  });

  it("hide remembered secrets in every message at construction", () => {
    const planted = "planted-token-0123456789";
    processContext().secrets.remember(planted);
    expect(new source.ConfigurationError(`bad ${planted}`).message).toBe("bad [REDACTED]");
    expect(new source.LifecycleError("input_refused", `refused ${planted}`).message).toBe(
      "refused [REDACTED]",
    );
  });
});
