import { readFileSync } from "node:fs";
import { z } from "zod";
import { exactly, exactlyInput } from "../contract/common-types";
import { REQUESTS_PER_SECOND } from "../contract/limits";
import type * as Shapes from "./public-types";

/** The sandbox's tunables: every value the spec leaves "not shown", each with a documented default. */
export const Settings = exactly<Shapes.Settings>()(
  z.object({
    /** Requests per second per token; 0 turns the limit off. */
    rateLimitPerSecond: z.number().min(0).default(REQUESTS_PER_SECOND),
    /** Lifetime of a domain verification link. */
    verificationTtlSeconds: z.number().positive().default(3600),
    /** Failed finish_registration attempts before the sandbox answers 429. */
    maxFailedFinishAttempts: z.number().int().positive().default(5),
    /** How long finish_registration stays blocked once the attempts are spent. */
    finishBlockSeconds: z.number().positive().default(60),
    /** Deliveries are retried until this long after the first attempt. */
    deliveryMaxSeconds: z.number().positive().default(3600),
    /** First retry delay; each later one doubles. */
    deliveryRetryBaseSeconds: z.number().positive().default(1),
    /** How long one delivery attempt, or one verification fetch, may take. */
    outboundTimeoutMs: z.number().int().positive().default(5000),
    /** Lifetime of an authentication config (`exp - iat`). */
    configLifetimeSeconds: z.number().int().positive().default(3600),
    /** Make supported-brands answer 503 ("temporarily unavailable; retry"). */
    brandsUnavailable: z.boolean().default(false),
  }),
);

const EXAMPLE_ORGANIZATION = '{"name": "acme", "tokens": [{"token": "acme-token", "webhooks": true}]}';

/** What a sandbox starts with: organizations, their users and tokens, stand-in hosts and settings. */
const Seed = exactlyInput<Shapes.SeedInput>()(
  exactly<Shapes.Seed>()(
    z.object({
      organizations: z
        .array(
          z.object({
            name: z.string().min(1),
            users: z.array(z.string().min(1)).default([]),
            tokens: z
              .array(
                z.object({
                  token: z.string().min(1),
                  webhooks: z.boolean().default(false),
                  /** The user that objects created with this token belong to; defaults to the first user. */
                  user: z.string().optional(),
                  /** The token setting of spec 2.5: items carry a legacy `images.camera` without image flags. */
                  presign_camera_url: z.boolean().default(false),
                }),
              )
              .default([]),
          }),
        )
        .default([])
        // An organization without a token can make no API request, and a seed that leaves every one
        // without is a sandbox nothing can use; both were accepted silently.
        .superRefine((organizations, ctx) => {
          if (organizations.length === 0) {
            ctx.addIssue({
              code: "custom",
              message: `is empty, so no API request can be made: add an organization with a token, such as ${EXAMPLE_ORGANIZATION}`,
            });
          }
          for (const [i, org] of organizations.entries()) {
            if (org.tokens.length > 0) continue;
            ctx.addIssue({
              code: "custom",
              path: [i],
              message: `(organization "${org.name}") has no token, so no API request can act for it: add one to its tokens, such as {"token": "${org.name}-token", "webhooks": true}`,
            });
          }
        }),
      /** Origin that stands in for https://<hostname> when the sandbox calls out. */
      hosts: z.record(z.string(), z.url()).default({}),
      settings: Settings.default(Settings.parse({})),
    }),
  ),
);

/** Checks a seed, naming `source` (the file, or "the seed") and the member at fault when it is wrong. */
export function parseSeed(json: unknown, source: string): Shapes.Seed {
  const parsed = Seed.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${source}: ${issue.path.join(".")} ${issue.message}`);
  }
  return parsed.data;
}

/** Reads and checks a seed file, naming the file and the member at fault when it is wrong. */
export function loadSeedFile(path: string): Shapes.Seed {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`seed file ${path} is not readable JSON: ${(error as Error).message}`);
  }
  return parseSeed(json, `seed file ${path}`);
}
