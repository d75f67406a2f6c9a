import type { SeedInput } from "./public-types";

/** The API token (webhooks enabled) of the demo organization the sandbox starts with when given no seed. */
export const DEMO_TOKEN = "sandbox-demo-token";

/** The seed used when none is given: the organization `demo`, two users, a webhooks token and a plain one. */
export const DEMO_SEED: SeedInput = {
  organizations: [
    {
      name: "demo",
      users: ["demo-alice", "demo-bob"],
      tokens: [
        { token: DEMO_TOKEN, webhooks: true },
        { token: "sandbox-demo-plain-token", webhooks: false },
      ],
    },
  ],
};
