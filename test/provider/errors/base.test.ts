/**
 * The error hierarchy is part of the contract: callers match on `code`, and `instanceof` must work across
 * two copies of the package. These tests pin both for every class, where the client tests only reach the
 * classes a sandbox can provoke.
 */

import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { ProcessContext, processContext, setProcessContext } from "../../../provider/context/process";
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

describe("a message", () => {
  it("hide remembered secrets in every message at construction", () => {
    const planted = "planted-token-0123456789";
    processContext().secrets.remember(planted);
    expect(new source.ConfigurationError(`bad ${planted}`).message).toBe("bad [REDACTED]");
    expect(new source.LifecycleError("input_refused", `refused ${planted}`).message).toBe(
      "refused [REDACTED]",
    );
  });
});
