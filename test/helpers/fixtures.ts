import type { SeedInput } from "../../sandbox/index";

export const HOOKS_TOKEN = "acme-hooks-token-0123456789";
export const PLAIN_TOKEN = "acme-plain-token-0123456789";
export const OTHER_TOKEN = "globex-hooks-token-0123456789";
export const HOST = "hooks.acme.test";
export const OTHER_HOST = "hooks.globex.test";
export const SECRET = "whsec-planted-secret-7f3a9c2e1b";

export function testSeed(originUrl: string, settings: SeedInput["settings"] = {}): SeedInput {
  return {
    organizations: [
      {
        name: "acme",
        users: ["acme-alice", "acme-bob"],
        tokens: [
          { token: HOOKS_TOKEN, webhooks: true },
          { token: PLAIN_TOKEN, webhooks: false },
        ],
      },
      { name: "globex", users: ["globex-carol"], tokens: [{ token: OTHER_TOKEN, webhooks: true }] },
    ],
    hosts: { [HOST]: originUrl, [OTHER_HOST]: originUrl, "other.acme.test": originUrl },
    settings: { rateLimitPerSecond: 0, ...settings },
  };
}
