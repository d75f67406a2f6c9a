import { describe, expect, it } from "vitest";
import { ServiceClient } from "../../../provider/client/index";
import {
  AmbiguousRequestError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
} from "../../../provider/errors/transport";
import { printed } from "../../helpers/printed";

/** The failures of a request that got no readable answer: what they name, and what they keep of their cause. */

const info = { method: "POST", route: "/v2/webhooks" };

describe("transport errors", () => {
  it("name the request and keep the cause", () => {
    const cause = new Error("socket hang up");
    const connection = new ConnectionError(info, "refused", cause);
    expect(connection.message).toBe("POST /v2/webhooks failed: refused");
    expect(connection).toMatchObject({ method: "POST", route: "/v2/webhooks", cause });
    expect(new TimeoutError(info, "slow", cause).cause).toBe(cause);
    const ambiguous = new AmbiguousRequestError(info, "lost", { cause, status: 502 });
    expect(ambiguous.message).toBe(
      "POST /v2/webhooks was sent but its outcome is unknown (lost). It may have been applied, so it was not re-sent: list what exists before sending it again.",
    );
    expect(ambiguous).toMatchObject({ status: 502, cause, method: "POST", route: "/v2/webhooks" });
    expect(new ResponseValidationError(info, "no items").message).toBe(
      "POST /v2/webhooks answered with a body the client cannot read: no items. Check that the base URL points at the Service API.",
    );
  });

  it("keeps a cause that holds no secret as it is", () => {
    const cause = new Error("socket hang up");
    expect(new ConnectionError({ method: "GET", route: "/v1/health" }, "refused", cause).cause).toBe(cause);
  });
});

describe("transport errors leak nothing", () => {
  /** Planted in every part of a transport failure. */
  const TOKEN = "planted-api-token-9c41e7d2b8";

  it("redacts the cause chain and the detail of transport errors", () => {
    // A client remembers its token as a secret when it is made.
    new ServiceClient({ token: TOKEN, baseUrl: "http://127.0.0.1:9", rateLimitPerSecond: 0 });
    const socket = Object.assign(new Error(`connect to /in?token=${TOKEN} failed`), {
      code: "ECONNRESET",
      url: `http://127.0.0.1/in?token=${TOKEN}`,
      cause: new Error(`inner ${TOKEN}`),
    });
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
});
