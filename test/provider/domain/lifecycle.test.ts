import { type AddressInfo, createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  domainRegistrationLifecycle,
  domainVerificationLifecycle,
} from "../../../provider/domain/declaration";
import type { ServiceError } from "../../../provider/errors/base";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { verificationFileLifecycle } from "../../../provider/publishers/declaration";
import { webhookLifecycle } from "../../../provider/webhook/declaration";
import { ManualClock } from "../../../sandbox/index";
import { failedFields } from "../../helpers/check-failures";
import { steppingClock } from "../../helpers/fake-clock";
import { HOOKS_TOKEN, HOST, OTHER_TOKEN, ROTATED_TOKEN, webhookArgs } from "../../helpers/fixtures";
import { configureStack, nextProcess, underProvider } from "../../helpers/runtime";
import { hookBody, registerDomain, startWorld, type World } from "../../helpers/world";

const domainRegistration = underProvider(domainRegistrationLifecycle);
const domainVerification = underProvider(domainVerificationLifecycle);
const verificationFile = underProvider(verificationFileLifecycle);
const webhook = underProvider(webhookLifecycle);

let world: World;
/** The provider's clock: its sleeps return at once, so waiting for a file or a deadline takes no real time. */
let clock: ReturnType<typeof steppingClock>;

function useStack(token = HOOKS_TOKEN) {
  clock = steppingClock(Date.now());
  configureStack(
    world.sandbox.url,
    token,
    { "service:hostOverrides": JSON.stringify({ [HOST]: world.origin.url }) },
    { clock },
  );
}

async function useWorld(settings: Parameters<typeof startWorld>[0] = {}, sandboxClock?: ManualClock) {
  world = await startWorld(settings, { clock: sandboxClock });
  useStack();
}

beforeEach(async () => {
  vi.stubEnv("SERVICE_RATE_LIMIT", "0");
  await useWorld();
});
afterEach(async () => {
  await world.close();
});

const finishes = () => world.calls("/v2/domains/finish_registration");

async function started() {
  const { inputs, failures } = await domainRegistration.check({}, { domainName: HOST });
  expect(failures).toEqual([]);
  return domainRegistration.create(inputs);
}

function publish(
  outs: { key: string; registerToken: string },
  answer: { status: number; body?: string; headers?: Record<string, string> } = {
    status: 200,
    body: outs.registerToken,
  },
) {
  world.origin.files.set(`/${outs.key}`, answer);
}

async function verify(
  outs: Awaited<ReturnType<typeof started>>["outs"],
  extra: Record<string, unknown> = {},
) {
  const news = {
    domainName: outs.domainName,
    verifier: outs.verifier,
    url: outs.url,
    registerToken: outs.registerToken,
    expiresAt: outs.expiresAt,
    ...extra,
  };
  const { inputs, failures } = await domainVerification.check({}, news);
  expect(failures).toEqual([]);
  return domainVerification.create(inputs);
}

/** A port on 127.0.0.1 that nothing listens on: one the system gave a server that is closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const captured = async (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: Error) => e as ServiceError,
  );

/** Resolves once the origin has answered `count` GETs for `path`: the provider's polls. */
async function polled(path: string, count: number): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (world.origin.received.filter((r) => r.method === "GET" && r.path === path).length >= count) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`${path} was not polled ${count} times`);
}

describe("check", () => {
  it("names the property and the rule", async () => {
    expect(
      (await domainRegistration.check({}, { domainName: "https://hooks.acme.test/" })).failures[0],
    ).toEqual({ property: "", reason: expect.stringMatching(/^domainName must be a bare hostname/) });
    const missing = await domainVerification.check({}, { domainName: HOST });
    expect(failedFields(missing.failures)).toEqual(["verifier", "url", "registerToken", "expiresAt"]);
    expect((await domainVerification.check({}, { domainName: HOST, adopt: true })).failures).toEqual([]);
    expect(
      failedFields(
        (await domainVerification.check({}, { domainName: HOST, adopt: true, timeout: -1 })).failures,
      ),
    ).toEqual(["timeout"]);
  });
});

describe("registration and verification", () => {
  it("starts, waits for the file, finishes once and registers the domain", async () => {
    const { id, outs } = await started();
    expect(id).toBe(outs.verifier);
    expect(outs.key).toBe(`service_url_registration/${outs.verifier}`);
    expect(outs.url).toBe(`https://${HOST}/${outs.key}`);
    publish(outs);
    const verified = await verify(outs);
    expect(verified.outs).toMatchObject({ domainName: HOST, status: "registered", domainUuid: verified.id });
    expect(JSON.stringify(verified.outs)).not.toContain(outs.registerToken);
    expect(finishes()).toBe(1);
    expect((await world.api("POST", "/v2/search/domains", { body: {} })).json.items[0].domain_uuid).toBe(
      verified.id,
    );
  });

  it("waits for a slow publisher and still calls finish exactly once", async () => {
    const { outs } = await started();
    const verifying = verify(outs, { timeout: 20 });
    await polled(`/${outs.key}`, 3);
    publish(outs);
    const verified = await verifying;
    expect(verified.outs.status).toBe("registered");
    expect(finishes()).toBe(1);
  });

  it.each([
    [
      "a wrong body",
      { status: 200, body: "not-the-token" },
      /200 with a 13-byte body that is not exactly the register token/,
    ],
    [
      "a redirect",
      { status: 301, headers: { location: "https://elsewhere.test/" } },
      /301 redirect to https:\/\/elsewhere.test\//,
    ],
    ["a 404", { status: 404 }, /answered 404/],
  ])(
    "gives up at the deadline on %s, says what it saw, and never calls finish",
    async (_name, answer, seen) => {
      const { outs } = await started();
      publish(outs, answer);
      const error = await captured(verify(outs, { timeout: 1 }));
      expect(error.code).toBe("file_not_served");
      expect(error.message).toMatch(seen);
      expect(error.message).toMatch(/raise the Domain's `timeout`/);
      expect(error.message).toMatch(/finish_registration was not called/);
      expect(error.message).not.toContain(outs.registerToken);
      expect(finishes()).toBe(0);
    },
  );

  it("gives up on a URL it cannot fetch naming the network's reason and the host override to check (regression)", async () => {
    const { outs } = await started();
    // The override points at a closed port, as a stale service:hostOverrides does: fetch itself says
    // only "fetch failed", its cause says why.
    const port = await closedPort();
    configureStack(
      world.sandbox.url,
      HOOKS_TOKEN,
      { "service:hostOverrides": JSON.stringify({ [HOST]: `http://127.0.0.1:${port}` }) },
      { clock },
    );
    const error = await captured(verify(outs, { timeout: 1 }));
    expect(error.code).toBe("file_not_served");
    expect(error.message).toContain(
      `could not be fetched (fetch failed: connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(error.message).toMatch(/`service:hostOverrides`/);
    expect(finishes()).toBe(0);
  });

  it("polls until the deadline itself, not an interval short of it (regression)", async () => {
    const { outs } = await started();
    publish(outs, { status: 404 });
    await captured(verify(outs, { timeout: 3 }));
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(3_000);
  });

  it("says the link expired, not to raise timeout, when the link's expiry was the deadline (regression)", async () => {
    const { outs } = await started();
    publish(outs, { status: 404 });
    const soon = new Date(Date.now() + 2_000).toISOString();
    const error = await captured(verify({ ...outs, expiresAt: soon }, { timeout: 600 }));
    expect(error.code).toBe("link_expired");
    expect(error.message).toMatch(/verification link for hooks\.acme\.test expired/);
    expect(error.message).toMatch(/pulumi refresh.*starts a new one/s);
    expect(error.message).not.toMatch(/timeout/);
    expect(finishes()).toBe(0);
  });

  it("refuses a link that expired before it was served, pointing at refresh", async () => {
    const { outs } = await started();
    publish(outs);
    const error = await captured(verify({ ...outs, expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expect(error.code).toBe("link_expired");
    expect(error.message).toMatch(/expired.*pulumi refresh/s);
    expect(finishes()).toBe(0);
  });

  it("reads the link's expiry on the service's clock: an expired link is not finished", async () => {
    await world.close();
    const sandboxClock = new ManualClock(Date.now());
    await useWorld({ verificationTtlSeconds: 3600 }, sandboxClock);
    const { outs } = await started();
    publish(outs);
    // The service's clock has moved past expires_at (by more than the Date header's one-second grain);
    // this machine's has not.
    sandboxClock.advance(3602_000);
    const error = await captured(verify(outs));
    expect(error.code).toBe("link_expired");
    expect(finishes()).toBe(0);
  });

  it("reports the service's own expiry answer the same way", async () => {
    await world.close();
    const sandboxClock = new ManualClock(Date.now());
    await useWorld({ verificationTtlSeconds: 3600 }, sandboxClock);
    const { outs } = await started();
    publish(outs, { status: 404 });
    const verifying = verify(outs);
    // The link was valid when the provider looked; it expires while the file is still being published.
    await polled(`/${outs.key}`, 2);
    sandboxClock.advance(3600_000);
    publish(outs);
    const error = await captured(verifying);
    expect(error.code).toBe("link_expired");
    expect(error.message).toMatch(/expired.*pulumi refresh/s);
    expect(finishes()).toBe(1);
  });

  it("after a finish whose answer was lost, takes the domain if it landed, and says what to do if not", async () => {
    const { outs } = await started();
    publish(outs);
    world.sandbox.addFault({ method: "POST", path: "/v2/domains/finish_registration", drop: true });
    const landed = await verify(outs);
    expect(landed.outs.status).toBe("registered");

    await world.api("POST", `/v2/domains/${landed.id}/deactivate`);
    const again = await started();
    publish(again.outs);
    world.sandbox.addFault({ method: "POST", path: "/v2/domains/finish_registration", status: 502 });
    const error = await captured(verify(again.outs));
    expect(error.code).toBe("outcome_unknown");
    expect(error.message).toMatch(
      /did not confirm finish_registration for hooks\.acme\.test.*Run `pulumi up` again/s,
    );
    nextProcess({ clock });
    expect((await verify(again.outs)).outs.status).toBe("registered");
    expect(finishes()).toBe(3);
  });

  it("re-runs idempotently: the same domain_uuid", async () => {
    const { outs } = await started();
    publish(outs);
    const first = await verify(outs);
    const again = await verify(outs);
    expect(again.id).toBe(first.id);
  });

  it("does not deactivate a domain that a replacement in the same run confirmed", async () => {
    const { outs } = await started();
    publish(outs);
    const first = await verify(outs);
    const replacement = await verify(outs);
    await domainVerification.remove(first.id, first.outs);
    expect(replacement.id).toBe(first.id);
    expect((await world.api("POST", "/v2/search/domains", { body: {} })).json.items).toHaveLength(1);
  });
});

describe("refresh", () => {
  it("reports an expired registration gone until the domain is registered", async () => {
    const { id, outs } = await started();
    const expired = { ...outs, expiresAt: new Date(Date.now() - 1000).toISOString() };
    expect(await domainRegistration.read(id, expired)).toEqual({});
    expect((await domainRegistration.read(id, outs)).id).toBe(id);
    await registerDomain(world);
    nextProcess({ clock });
    expect((await domainRegistration.read(id, expired)).id).toBe(id);
  });

  it("reports a domain deactivated out of band as gone", async () => {
    const { outs } = await started();
    publish(outs);
    const verified = await verify(outs);
    expect((await domainVerification.read(verified.id, verified.outs)).id).toBe(verified.id);
    await world.api("POST", `/v2/domains/${verified.id}/deactivate`);
    nextProcess({ clock });
    expect(await domainVerification.read(verified.id, verified.outs)).toEqual({});
  });
});

describe("a change of credentials", () => {
  async function registered() {
    const { outs } = await started();
    publish(outs);
    return verify(outs);
  }

  it("to another organization's token fails the update with one call, and changes nothing", async () => {
    const { id, outs } = await registered();
    expect(outs).toMatchObject({ organization: "acme" });
    const before = world.calls();
    const error = await captured(
      domainVerification.update(id, outs, { ...outs, connection: { token: OTHER_TOKEN } }),
    );
    expect(world.calls() - before).toBe(1);
    expect(error.code).toBe("credentials_changed");
    expect(error.message).toMatch(
      /cannot see the registered domain hooks\.acme\.test, which belongs to organization acme/,
    );
  });

  it("to another token of the same organization updates in place", async () => {
    const { id, outs } = await registered();
    const updated = await domainVerification.update(id, outs, {
      ...outs,
      connection: { token: ROTATED_TOKEN },
    });
    expect(updated.outs).toMatchObject({ domainUuid: id, organization: "acme" });
  });

  it("never lets refresh or destroy forget the domain under another organization's token", async () => {
    const { id, outs } = await registered();
    await registerDomain(world, "hooks.globex.test", OTHER_TOKEN);
    useStack(OTHER_TOKEN);
    expect((await captured(domainVerification.read(id, outs))).code).toBe("foreign_credentials");
    const destroy = await captured(domainVerification.remove(id, outs));
    expect(destroy.code).toBe("foreign_credentials");
    expect(destroy.message).toMatch(/registered domain hooks\.acme\.test .* belongs to organization acme/);
    const listed = await world.api("POST", "/v2/search/domains", { body: {} });
    expect(listed.json.items.map((d: { domain_uuid: string }) => d.domain_uuid)).toEqual([id]);
  });
});

describe("delete and adopt", () => {
  it("explains a 409 by listing the webhooks, then deletes once they are gone", async () => {
    const { outs } = await started();
    publish(outs);
    const registered = await verify(outs);
    const hook = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
    const error = await captured(domainVerification.remove(registered.id, registered.outs));
    expect(error.code).toBe("domain_in_use");
    expect(error.message).toContain(hook);
    await world.api("POST", `/v2/webhooks/${hook}/deactivate`);
    await domainVerification.remove(registered.id, registered.outs);
    expect((await world.api("POST", "/v2/search/domains", { body: {} })).json.items).toEqual([]);
    await domainVerification.remove(registered.id, registered.outs);
  });

  it("refuses to adopt a domain that is not registered", async () => {
    const { inputs } = await domainVerification.check({}, { domainName: HOST, adopt: true });
    const error = await captured(domainVerification.create(inputs));
    expect(error.code).toBe("domain_not_registered");
    expect(error.message).toMatch(/not registered to this organization/);
  });
});

/** Issue 42, item 1: two stacks of one organization and one hostname. */
describe("a hostname another stack registered", () => {
  const domains = async () =>
    (await world.api("POST", "/v2/search/domains", { body: {} })).json.items.map(
      (d: { domain_uuid: string }) => d.domain_uuid,
    );
  /** What the provider wrote to stderr while `run` ran: the lines the engine shows. */
  async function said(run: () => Promise<unknown>): Promise<string[]> {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await run();
      return write.mock.calls.map(([text]) => String(text));
    } finally {
      write.mockRestore();
    }
  }

  it("is said at check and at up, recorded as adopted, and left registered by delete in one line", async () => {
    const theirs = await registerDomain(world);
    const preview = await said(() => domainRegistration.check({}, { domainName: HOST }));
    expect(preview).toEqual([
      expect.stringMatching(
        new RegExp(
          `^hooks\\.acme\\.test is already registered to organization acme \\(${theirs.domain_uuid}\\).*will share it.*\`adopt\` true.*hostname of its own\\.\n$`,
        ),
      ),
    ]);
    // The provider plugin shows it as a warning on the resource instead.
    nextProcess({ clock });
    const urn = "urn:pulumi:staging::p::service:index:DomainRegistration::hooks-registration";
    const warned = await domainRegistration.check({}, { domainName: HOST }, { urn });
    expect(warned.warnings).toEqual([{ urn, message: expect.stringContaining("already registered") }]);

    nextProcess({ clock });
    let verified: Awaited<ReturnType<typeof verify>> | undefined;
    const up = await said(async () => {
      const { outs } = await started();
      publish(outs);
      verified = await verify(outs);
    });
    // Said once in a process: the check before the create said it.
    expect(up).toEqual([expect.stringMatching(/already registered .*will share it/)]);
    expect(verified!.id).toBe(theirs.domain_uuid);
    expect(verified!.outs).toMatchObject({ status: "adopted", adopt: false });
    // The registration's members are recorded, so that the next preview proposes no change.
    const again = { ...verified!.outs, registerToken: "t".repeat(20) };
    expect((await domainVerification.diff(verified!.id, verified!.outs, again)).changes).toBe(false);
    expect(finishes()).toBe(1);

    nextProcess({ clock });
    const destroy = await said(() => domainVerification.remove(verified!.id, verified!.outs));
    expect(destroy).toEqual([
      `hooks.acme.test (${theirs.domain_uuid}) stays registered: this stack did not register it (status adopted), so deleting its Domain leaves it to the stack or person that did.\n`,
    ]);
    expect(await domains()).toEqual([theirs.domain_uuid]);
  });

  it("with adopt: true, is taken silently and left registered", async () => {
    const theirs = await registerDomain(world);
    const { inputs } = await domainVerification.check({}, { domainName: HOST, adopt: true });
    const adopted = await domainVerification.create(inputs);
    expect(adopted.outs).toMatchObject({ status: "adopted", adopt: true, domainUuid: theirs.domain_uuid });
    nextProcess({ clock });
    const destroy = await said(() => domainVerification.remove(adopted.id, adopted.outs));
    expect(destroy).toHaveLength(1);
    expect(await domains()).toEqual([theirs.domain_uuid]);
  });

  it("is asked about once, only for a hostname new to the resource, and never with unknowns", async () => {
    let before = world.calls();
    expect(await said(() => domainRegistration.check({}, { domainName: HOST }))).toEqual([]);
    expect(world.calls() - before).toBe(1);
    before = world.calls();
    await registerDomain(world);
    const calls = world.calls() - before;
    expect(await said(() => domainRegistration.check({ domainName: HOST }, { domainName: HOST }))).toEqual(
      [],
    );
    expect(await said(() => domainRegistration.check({}, { domainName: UNKNOWN }))).toEqual([]);
    expect(world.calls() - before).toBe(calls);
  });

  it("a domain this stack registered, refused for webhooks outside its state, names them and points at audit", async () => {
    const { outs } = await started();
    publish(outs);
    const registered = await verify(outs);
    const byHand = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
    const outside = await captured(domainVerification.remove(registered.id, registered.outs));
    expect(outside.code).toBe("domain_in_use");
    expect(outside.message).toMatch(
      new RegExp(`Not in this stack's state, so another stack's or made by hand:\n  - ${byHand} `),
    );
    expect(outside.message).toMatch(/`service-pulumi audit --stacks <the other stack>,<this stack>`/);
    expect(outside.message).toMatch(
      /If the other stack shares .* \(it adopted it\), destroy that stack first; or leave .* the `pulumi state delete` audit prints/,
    );
    expect(outside.message).not.toMatch(/dependsOn/);

    // A webhook of this stack's state is named as such, with the option that orders its deletion.
    const { inputs } = await webhook.check({}, webhookArgs({ channel: "mine" }));
    const mine = (await webhook.create(inputs)).id;
    const both = await captured(domainVerification.remove(registered.id, registered.outs));
    expect(both.message).toMatch(new RegExp(`Held by this stack's own resources:\n  - ${mine} `));
    expect(both.message).toMatch(/dependsOn: \[domain\]/);
    expect(await domains()).toEqual([registered.id]);
  });
});

describe("directory publisher's file", () => {
  it("writes, rewrites on a new token, and removes the file", async () => {
    const { mkdtempSync, readFileSync, existsSync } = await import("node:fs");
    const dir = mkdtempSync(`${require("node:os").tmpdir()}/verification-`);
    const created = await verificationFile.create({
      directory: dir,
      key: "service_url_registration/abc",
      content: "token-1-xxxxxx",
    });
    expect(readFileSync(created.id, "utf8")).toBe("token-1-xxxxxx");
    expect(JSON.stringify(created.outs)).not.toContain("token-1-xxxxxx");
    const same = await verificationFile.diff(created.id, created.outs, {
      directory: dir,
      key: "service_url_registration/abc",
      content: "token-1-xxxxxx",
    });
    expect(same.changes).toBe(false);
    const rotated = await verificationFile.diff(created.id, created.outs, {
      directory: dir,
      key: "service_url_registration/abc",
      content: "token-2-xxxxxx",
    });
    expect(rotated).toMatchObject({ changes: true, replaces: [] });
    const moved = await verificationFile.diff(created.id, created.outs, {
      directory: dir,
      key: "service_url_registration/def",
      content: "token-1-xxxxxx",
    });
    expect(moved.replaces).toEqual(["key"]);
    expect(
      failedFields(
        (await verificationFile.check({}, { directory: dir, key: "../escape", content: "x" })).failures,
      ),
    ).toEqual(["key"]);
    await verificationFile.remove(created.id, created.outs);
    expect(existsSync(created.id)).toBe(false);
  });
});
