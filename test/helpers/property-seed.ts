import { randomInt } from "node:crypto";

/** The environment variable that replays a run of the property tests. */
const SEED_VARIABLE = "FC_SEED";

/**
 * The seed every fast-check property of a run uses: FC_SEED when set (to replay a failure), else a fresh
 * one. A property that fails on some seeds fails some CI runs, so the seed is always printed.
 */
export function chooseSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env[SEED_VARIABLE];
  if (given === undefined || given === "") return randomInt(2 ** 31);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(
      `${SEED_VARIABLE}=${given} is not a whole number: set it to the seed a failed run printed.`,
    );
  }
  return seed;
}

/** The line a run prints, so that a failure can be replayed. */
export const seedLine = (seed: number) =>
  `fast-check seed ${seed}; replay a property failure with ${SEED_VARIABLE}=${seed} npm test`;

declare module "vitest" {
  interface ProvidedContext {
    /** The seed chosen once per run by test/setup/property-seed.ts. */
    fastCheckSeed: number;
  }
}
