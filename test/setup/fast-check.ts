import * as fc from "fast-check";
import { inject } from "vitest";
import { chooseSeed, seedLine } from "../helpers/property-seed";

/**
 * Every property of a test file runs with the run's seed (test/setup/property-seed.ts). A run without that
 * global setup (the mutation config) chooses and prints its own.
 */
function seedOfRun(): number {
  const provided = inject("fastCheckSeed");
  if (provided !== undefined) return provided;
  const seed = chooseSeed();
  process.stdout.write(`${seedLine(seed)}\n`);
  return seed;
}

fc.configureGlobal({ seed: seedOfRun() });
