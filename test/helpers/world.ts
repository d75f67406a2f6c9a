import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  ManualClock,
  type Sandbox,
  type SandboxClock,
  type SeedInput,
  startSandbox,
} from "../../sandbox/index";
import { HOOKS_TOKEN, HOST, SECRET, testSeed } from "./fixtures";
import { plainApi } from "./http";
import { startOrigin, type TestOrigin } from "./origin";

/** A sandbox with a stand-in webhook host, as most provider tests need. */
export interface World {
  readonly sandbox: Sandbox;
  readonly origin: TestOrigin;
  readonly api: ReturnType<typeof plainApi>;
  /** Requests the sandbox answered for one route template. */
  calls(route?: string): number;
  close(): Promise<void>;
}

export async function startWorld(
  settings: SeedInput["settings"] = {},
  options: { clock?: SandboxClock } = {},
): Promise<World> {
  const origin = await startOrigin();
  const sandbox = await startSandbox({ seed: testSeed(origin.url, settings), clock: options.clock });
  return {
    sandbox,
    origin,
    api: plainApi(sandbox.url, { token: HOOKS_TOKEN }),
    calls: (route) => sandbox.requests().filter((r) => route === undefined || r.route === route).length,
    close: async () => {
      await sandbox.close();
      await origin.close();
    },
  };
}

/** Registers a domain through plain HTTP, publishing its token on the stand-in host. */
export async function registerDomain(
  world: Pick<World, "api" | "origin">,
  domain = HOST,
  token = HOOKS_TOKEN,
) {
  const start = await world.api("POST", "/v2/domains/start_registration", {
    token,
    body: { domain_name: domain },
  });
  if (start.status !== 200) throw new Error(`start_registration answered ${start.status}`);
  world.origin.files.set(`/service_url_registration/${start.json.verifier}`, {
    status: 200,
    body: start.json.register_token,
  });
  const finish = await world.api("POST", "/v2/domains/finish_registration", {
    token,
    body: { domain_name: domain, verifier: start.json.verifier },
  });
  if (finish.status !== 200) throw new Error(`finish_registration answered ${finish.status}`);
  return finish.json as { domain_uuid: string; domain_name: string; verifier: string };
}

/** A valid wire body for POST /v2/webhooks. */
export const hookBody = (overrides: Record<string, unknown> = {}) => ({
  endpoint: { type: "url", value: `https://${HOST}/service/events` },
  secret_key: SECRET,
  filters: [{ key: "activity.name", value: "authentication" }],
  ...overrides,
});

/**
 * A World with HOST registered, started before the file's (or describe block's) tests and closed after.
 * Read `.current` inside tests.
 */
export function useRegisteredWorld(scope: "all" | "each" = "all"): { readonly current: World } {
  const holder: { current: World } = { current: undefined as unknown as World };
  const [before, after] = scope === "all" ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    holder.current = await startWorld();
    await registerDomain(holder.current);
  });
  after(async () => {
    await holder.current?.close();
  });
  return holder;
}

/**
 * A World on a manual clock of its own, started before each test and closed after. `restart` closes it and
 * starts it again with other settings, on the same clock. Read `.current` inside tests.
 */
export function useClockedWorld(): {
  readonly current: World;
  readonly clock: ManualClock;
  restart(settings: SeedInput["settings"]): Promise<void>;
  /** The current World's plain caller. */
  readonly api: World["api"];
  /** Registers a domain (HOST by default) on the current World. */
  registerDomain(domain?: string, token?: string): ReturnType<typeof registerDomain>;
} {
  const holder = {
    current: undefined as unknown as World,
    clock: undefined as unknown as ManualClock,
    async restart(settings: SeedInput["settings"]) {
      await holder.current.close();
      holder.current = await startWorld(settings, { clock: holder.clock });
    },
    api: (...args: Parameters<World["api"]>) => holder.current.api(...args),
    registerDomain: (domain = HOST, token = HOOKS_TOKEN) => registerDomain(holder.current, domain, token),
  };
  beforeEach(async () => {
    holder.clock = new ManualClock();
    holder.current = await startWorld({}, { clock: holder.clock });
  });
  afterEach(async () => {
    await holder.current?.close();
  });
  return holder;
}
