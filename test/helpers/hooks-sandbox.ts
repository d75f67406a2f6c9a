import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { ServiceClient } from "../../provider/client/index";
import { type Sandbox, startSandbox } from "../../sandbox/index";
import { steppingClock } from "./fake-clock";
import { HOOKS_TOKEN, HOST, SECRET, testSeed } from "./fixtures";
import { startOrigin, type TestOrigin } from "./origin";

/** A webhook to HOST's endpoint on `channel`, valid on both API generations. */
export const hook = (channel = "default") => ({
  endpoint: { type: "url" as const, value: `https://${HOST}/service/events` },
  secret_key: SECRET,
  channel,
  filters: [{ key: "activity.name", value: "authentication" }],
});

/** A fresh sandbox per test, whose domains verify against a test origin, and clients of a webhooks token. */
export interface HooksSandbox {
  /** Serves each domain's verification file; one for the whole describe. */
  readonly origin: TestOrigin;
  readonly sandbox: Sandbox;
  /** The clients' clock: their sleeps return at once, and are recorded. */
  readonly clock: ReturnType<typeof steppingClock>;
  /** Every line the clients of this test logged. */
  readonly logs: string[];
  /** A client of HOOKS_TOKEN on this sandbox, limiter off, logging into `logs`. */
  client(options?: ConstructorParameters<typeof ServiceClient>[0]): ServiceClient;
  /** Registers HOST through `c`, serving its verification file from the origin. */
  registerDomain(c: ServiceClient): ReturnType<ServiceClient["domains"]["finishRegistration"]>;
  /** How many requests the sandbox answered for one route template. */
  calls(route: string): number;
}

/** Starts the origin before the describe (or file) it is called in, and a sandbox before each of its tests. */
export function useHooksSandbox(): HooksSandbox {
  let origin: TestOrigin;
  let sandbox: Sandbox;
  let clock: ReturnType<typeof steppingClock>;
  let logs: string[];
  beforeAll(async () => {
    origin = await startOrigin();
  });
  afterAll(async () => {
    await origin.close();
  });
  beforeEach(async () => {
    sandbox = await startSandbox({ seed: testSeed(origin.url) });
    clock = steppingClock();
    logs = [];
  });
  afterEach(async () => {
    await sandbox.close();
  });
  const client = (options: ConstructorParameters<typeof ServiceClient>[0] = {}) =>
    new ServiceClient({
      token: HOOKS_TOKEN,
      baseUrl: sandbox.url,
      rateLimitPerSecond: 0,
      logger: (line) => logs.push(line),
      clock: clock.now,
      sleep: clock.sleep,
      ...options,
    });
  return {
    get origin() {
      return origin;
    },
    get sandbox() {
      return sandbox;
    },
    get clock() {
      return clock;
    },
    get logs() {
      return logs;
    },
    client,
    async registerDomain(c) {
      const start = await c.domains.startRegistration({ domain_name: HOST });
      origin.files.set(`/service_url_registration/${start.verifier}`, {
        status: 200,
        body: start.register_token,
      });
      return c.domains.finishRegistration({ domain_name: HOST, verifier: start.verifier });
    },
    calls: (route) => sandbox.requests().filter((r) => r.route === route).length,
  };
}
