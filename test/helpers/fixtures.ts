import type { SeedInput } from "../../sandbox/index";

export const HOOKS_TOKEN = "acme-hooks-token-0123456789";
export const PLAIN_TOKEN = "acme-plain-token-0123456789";
/** A second webhooks-enabled token of acme: the same organization, other credentials. */
export const ROTATED_TOKEN = "acme-rotated-token-0123456789";
export const OTHER_TOKEN = "globex-hooks-token-0123456789";
export const HOST = "hooks.acme.test";
export const OTHER_HOST = "hooks.globex.test";
export const SECRET = "whsec-planted-secret-7f3a9c2e1b";
/** The host the examples' dev stacks verify (their Pulumi.dev.yaml), as on the local sandbox. */
export const EXAMPLES_HOST = "hooks.local.test";

/** A Webhook's inputs as a program would give them: an authentication webhook on HOST. */
export const webhookArgs = (overrides: Record<string, unknown> = {}) => ({
  endpoint: `https://${HOST}/service/events`,
  secretKey: SECRET,
  filters: [{ key: "activity.name", value: "authentication" }],
  ...overrides,
});

export function testSeed(originUrl: string, settings: SeedInput["settings"] = {}): SeedInput {
  return {
    organizations: [
      {
        name: "acme",
        users: ["acme-alice", "acme-bob"],
        tokens: [
          { token: HOOKS_TOKEN, webhooks: true },
          { token: PLAIN_TOKEN, webhooks: false },
          { token: ROTATED_TOKEN, webhooks: true },
        ],
      },
      { name: "globex", users: ["globex-carol"], tokens: [{ token: OTHER_TOKEN, webhooks: true }] },
    ],
    hosts: {
      [HOST]: originUrl,
      [OTHER_HOST]: originUrl,
      "other.acme.test": originUrl,
      [EXAMPLES_HOST]: originUrl,
    },
    settings: { rateLimitPerSecond: 0, ...settings },
  };
}

/** A fleet of organizations, each with its own token and webhook host, as a platform team manages them. */
export const FLEET = ["north", "south", "east"].map((name) => ({
  organization: `fleet-${name}`,
  token: `fleet-${name}-token-0123456789`,
  host: `hooks.fleet-${name}.test`,
}));

/** The test seed plus the FLEET's organizations, their hosts served by the same origin. */
export function fleetSeed(originUrl: string, settings: SeedInput["settings"] = {}): SeedInput {
  const seed = testSeed(originUrl, settings);
  return {
    ...seed,
    organizations: [
      ...seed.organizations!,
      ...FLEET.map((org) => ({
        name: org.organization,
        users: [`${org.organization}-admin`],
        tokens: [{ token: org.token, webhooks: true }],
      })),
    ],
    hosts: { ...seed.hosts, ...Object.fromEntries(FLEET.map((org) => [org.host, originUrl])) },
  };
}

/** The admin token a sandbox is started with where its admin routes need one. */
export const ADMIN_TOKEN = "admin-token-planted-5f0c2a9e7d";

/** The key each stored provider asks the runtime for, with the type token its resources are registered under. */
export const SERVED = {
  webhook: "pulumi-nodejs:dynamic/service:Webhook",
  domainRegistration: "pulumi-nodejs:dynamic/service:DomainRegistration",
  domainVerification: "pulumi-nodejs:dynamic/service:DomainVerification",
  verificationFile: "pulumi-nodejs:dynamic/service:VerificationFile",
};
