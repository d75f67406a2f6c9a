import { describe, expect, it } from "vitest";
import { HOOKS_TOKEN, HOST, OTHER_HOST, SECRET } from "../../helpers/fixtures";
import {
  hookBody,
  registerDomain as registerDomainVia,
  useClockedWorld,
  type World,
} from "../../helpers/world";

/** What the admin routes show. */
const world = useClockedWorld();
const api = (...args: Parameters<World["api"]>) => world.current.api(...args);
const registerDomain = (domain = HOST, token = HOOKS_TOKEN) =>
  registerDomainVia(world.current, domain, token);

describe("admin output", () => {
  it("never shows a secret key, register token, API token or issued credential", async () => {
    await registerDomain();
    const pending = await api("POST", "/v2/domains/start_registration", {
      body: { domain_name: OTHER_HOST },
    });
    await api("POST", "/v2/webhooks", { body: hookBody() });
    const voucher = await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "user-0001", email: "a@example.com" },
    });
    const signed = await api("POST", "/v2/integrations/authorize-user", {
      body: { unique_user_id: "user-0001", email: "a@example.com", sdk_authorization_request: "r" },
    });
    world.current.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.current.sandbox.deliveriesIdle();
    const secrets = [
      SECRET,
      HOOKS_TOKEN,
      pending.json.register_token,
      voucher.json.login_voucher,
      signed.json.signed_authorization_request,
    ];
    for (const route of ["/_sandbox/state", "/_sandbox/requests", "/_sandbox/deliveries", "/_sandbox"]) {
      const text = await (await fetch(`${world.current.sandbox.url}${route}`)).text();
      for (const secret of secrets) expect(text, route).not.toContain(secret);
    }
  });
});
