import { describe, expect, it } from "vitest";
import { RequestValidationError, type ServiceError } from "../../../provider/client/index";
import { rejection } from "../../helpers/client-sandbox";
import { HOST, SECRET } from "../../helpers/fixtures";
import { hook, useHooksSandbox } from "../../helpers/hooks-sandbox";

/** A request's body checked against its route's schema before anything is sent. */

describe("refusals before sending (spec rules a call is not needed for)", () => {
  const world = useHooksSandbox();
  const { client, registerDomain } = world;

  const LONGER = "use a longer random key, e.g. the output of `openssl rand -hex 24`";
  it.each([
    ["1.4", "s".repeat(19), `must be at least 20 characters on API 1.4: ${LONGER}`],
    ["2.0", "s".repeat(15), `must be 16 to 256 characters on API 2.0: ${LONGER}`],
    ["2.0", "s".repeat(257), "must be 16 to 256 characters on API 2.0: use a shorter random key"],
  ] as const)(
    "API %s refuses a secret_key of the wrong length (case %#)",
    async (apiVersion, secret_key, message) => {
      const error = await rejection<ServiceError>(
        client({ apiVersion }).webhooks.create({ ...hook(), secret_key }),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.code).toBe("request_validation");
      expect((error as RequestValidationError).fields).toEqual([{ field: "secret_key", message }]);
      expect(error.message).not.toContain(secret_key);
      expect(world.sandbox.requests()).toEqual([]);
    },
  );

  it.each([
    ["1.4", 20],
    ["2.0", 16],
    ["2.0", 256],
  ] as const)("API %s sends a secret_key of %d characters", async (apiVersion, length) => {
    await registerDomain(client());
    const made = await client({ apiVersion }).webhooks.create({ ...hook(), secret_key: "k".repeat(length) });
    expect(made.webhook_uuid).toEqual(expect.any(String));
  });

  it("refuses a create whose filters or endpoint break the spec, naming each member by its wire path", async () => {
    const error = (await rejection<ServiceError>(
      client().webhooks.create({
        endpoint: { type: "url", value: "http://hooks.example.com/e?x=1" },
        secret_key: SECRET,
        filters: [{ key: "activity.form_factor", value: "tablet" }],
      }),
    )) as RequestValidationError;
    expect(error.fields.map((f) => f.field)).toEqual(["endpoint.value", "filters[0].value", "filters"]);
    expect(world.sandbox.requests()).toEqual([]);
  });

  it("refuses a domain_name that is not a bare hostname, and a finish without a verifier", async () => {
    const c = client();
    const start = (await rejection<ServiceError>(
      c.domains.startRegistration({ domain_name: "https://hooks.example.com/" }),
    )) as RequestValidationError;
    expect(start.fields[0]!.field).toBe("domain_name");
    const finish = (await rejection<ServiceError>(
      c.domains.finishRegistration({ domain_name: HOST, verifier: "" }),
    )) as RequestValidationError;
    expect(finish.fields).toEqual([{ field: "verifier", message: "must not be empty" }]);
    expect(world.sandbox.requests()).toEqual([]);
  });
});
