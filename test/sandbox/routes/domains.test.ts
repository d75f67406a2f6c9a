import { describe, expect, it } from "vitest";
import { HOOKS_TOKEN, HOST } from "../../helpers/fixtures";
import type { OriginAnswer } from "../../helpers/origin";
import {
  hookBody,
  registerDomain as registerDomainVia,
  useClockedWorld,
  type World,
} from "../../helpers/world";

/** The domain routes (spec 2.7, 5): registration, its checks and limits, listing and deactivation. */
const world = useClockedWorld();
const api = (...args: Parameters<World["api"]>) => world.current.api(...args);
const registerDomain = (domain = HOST, token = HOOKS_TOKEN) =>
  registerDomainVia(world.current, domain, token);

describe("domains", () => {
  it("starts a registration for a bare hostname only", async () => {
    for (const bad of [
      "https://hooks.acme.test",
      "hooks.acme.test/",
      "hooks.acme.test/x",
      "localhost",
      "HOOKS.acme.test",
    ]) {
      const res = await api("POST", "/v2/domains/start_registration", { body: { domain_name: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.json.error.fields[0].field).toBe("domain_name");
    }
    const res = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    expect(res.status).toBe(200);
    expect(res.json.url).toBe(`https://${HOST}/service_url_registration/${res.json.verifier}`);
    expect(typeof res.json.register_token).toBe("string");
    expect(Date.parse(res.json.expires_at)).toBe(world.clock.now() + 3600_000);
  });

  it("finishes when the file holds exactly the token, and again idempotently", async () => {
    const first = await registerDomain();
    const again = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: HOST, verifier: first.verifier },
    });
    expect(again.status).toBe(200);
    expect(again.json.domain_uuid).toBe(first.domain_uuid);
    const listed = await api("POST", "/v2/search/domains", { body: {} });
    expect(listed.json.items.map((d: { domain_uuid: string }) => d.domain_uuid)).toEqual([first.domain_uuid]);
    expect(listed.json.items[0].create_time.epoch).toBe(world.clock.now() / 1000);
    const v1 = await api("POST", "/v1/search/domains", { body: {} });
    expect(v1.json.items[0].create_timestamp).toBeDefined();
  });

  it("refuses a wrong verifier for a registered domain (regression: any verifier finished it)", async () => {
    const first = await registerDomain();
    const finish = (verifier: string) =>
      api("POST", "/v2/domains/finish_registration", { body: { domain_name: HOST, verifier } });
    const wrong = await finish("anything");
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toMatch(/already registered.*not the one that registered it/);
    expect(wrong.json.error.fields[0].field).toBe("verifier");
    // A fresh start's verifier, with its file served, finishes to the same domain.
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    world.current.origin.files.set(`/service_url_registration/${start.json.verifier}`, {
      status: 200,
      body: start.json.register_token,
    });
    const again = await finish(start.json.verifier);
    expect(again.status).toBe(200);
    expect(again.json.domain_uuid).toBe(first.domain_uuid);
  });

  it("counts wrong verifiers as failed finishes towards the 429", async () => {
    await world.restart({ maxFailedFinishAttempts: 2 });
    await registerDomain();
    const finish = () =>
      api("POST", "/v2/domains/finish_registration", { body: { domain_name: HOST, verifier: "guess" } });
    expect((await finish()).status).toBe(400);
    expect((await finish()).status).toBe(400);
    expect((await finish()).status).toBe(429);
  });

  it("answers not registered to a finish for a domain never started", async () => {
    const res = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: "never.acme.test", verifier: "v" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/not registered/);
  });

  it("lists 20 domains a page by default on v2 and 25 on v1.4", async () => {
    const token = world.current.sandbox.store.tokens.get(HOOKS_TOKEN)!;
    for (let i = 0; i < 26; i++) {
      world.current.sandbox.store.completeRegistration(
        token,
        world.current.sandbox.store.startRegistration(token, `d${i}.acme.test`),
      );
    }
    const v2 = await api("POST", "/v2/search/domains", { body: {} });
    expect(v2.json.item_count).toBe(20);
    const rest = await api("POST", "/v2/search/domains", { body: { cursor: v2.json.next_cursor } });
    expect(rest.json).toMatchObject({ item_count: 6, next_cursor: null });
    expect((await api("POST", "/v1/search/domains", { body: { limit: null } })).json.item_count).toBe(25);
    for (const limit of [0, 21, 2.5])
      expect((await api("POST", "/v2/search/webhooks", { body: { limit } })).status, String(limit)).toBe(400);
  });

  it.each<[string, OriginAnswer, RegExp]>([
    ["a wrong body", { status: 200, body: "wrong" }, /not exactly the register token/],
    ["a trailing newline", { status: 200, body: "TOKEN\n" }, /not exactly the register token/],
    ["a redirect", { status: 302, headers: { location: "/elsewhere" } }, /redirect/],
    ["a 404", { status: 404 }, /answered 404/],
  ])("explains a failed check: %s", async (_name, answer, reason) => {
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    const body = answer.body === "TOKEN\n" ? `${start.json.register_token}\n` : answer.body;
    world.current.origin.files.set(`/service_url_registration/${start.json.verifier}`, { ...answer, body });
    const res = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: HOST, verifier: start.json.verifier },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/check failed/);
    expect(res.json.error.message).toMatch(reason);
    expect(JSON.stringify(res.json)).not.toContain(start.json.register_token);
  });

  it("answers 429 after too many failed finishes", async () => {
    await world.restart({ maxFailedFinishAttempts: 2, finishBlockSeconds: 30 });
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    const finish = () =>
      api("POST", "/v2/domains/finish_registration", {
        body: { domain_name: HOST, verifier: start.json.verifier },
      });
    expect((await finish()).status).toBe(400);
    expect((await finish()).status).toBe(400);
    const blocked = await finish();
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBe("30");
  });

  it("refuses a finish after expires_at", async () => {
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    world.current.origin.files.set(`/service_url_registration/${start.json.verifier}`, {
      status: 200,
      body: start.json.register_token,
    });
    world.clock.advance(3600_000);
    const res = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: HOST, verifier: start.json.verifier },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/expired.*start registration again/);
  });

  it("deactivates: 409 while a webhook targets the domain, 400 once removed", async () => {
    const domain = await registerDomain();
    const hook = await api("POST", "/v2/webhooks", { body: hookBody() });
    const busy = await api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`);
    expect(busy.status).toBe(409);
    expect(busy.json.error.message).toContain(hook.json.webhook_uuid);
    await api("POST", `/v2/webhooks/${hook.json.webhook_uuid}/deactivate`);
    expect((await api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`)).json).toEqual({
      status: "ok",
    });
    const again = await api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`);
    expect(again.status).toBe(400);
    expect(again.json.error.message).toMatch(/not registered/);
  });

  it("takes a v2 search limit of 1 to 20 and a v1.4 one up to 25", async () => {
    for (const limit of [0, 21])
      expect((await api("POST", "/v2/search/domains", { body: { limit } })).status).toBe(400);
    expect((await api("POST", "/v2/search/domains", { body: { limit: 20 } })).status).toBe(200);
    expect((await api("POST", "/v2/search/domains", { body: { limit: null } })).status).toBe(200);
    expect((await api("POST", "/v1/search/domains", { body: { limit: 25 } })).status).toBe(200);
    expect((await api("POST", "/v1/search/domains", { body: { limit: 26 } })).status).toBe(400);
  });
});
