import { describe, expect, it } from "vitest";
import {
  ConfigurationError,
  RequestValidationError,
  type ServiceError,
} from "../../../provider/client/index";
import { rejection } from "../../helpers/client-sandbox";
import { HOOKS_TOKEN } from "../../helpers/fixtures";
import { useHooksSandbox } from "../../helpers/hooks-sandbox";

/** The refusal of a request before it is sent: what it names, its code, and what it keeps of secrets. */

describe("RequestValidationError", () => {
  const world = useHooksSandbox();
  const { client } = world;

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

  it("has its own code, and is still a ConfigurationError for code that catches those", async () => {
    const error = await rejection<ServiceError>(client().webhooks.list({ limit: 0 }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.code).toBe("request_validation");
    expect(new ConfigurationError("x").code).toBe("configuration");
  });
});
