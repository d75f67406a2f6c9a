import type { TestProject } from "vitest/node";
import { chooseSeed, seedLine } from "../helpers/property-seed";

/** Chooses one fast-check seed for the whole run, prints it, and hands it to every test file. */
export default function provideSeed(project: TestProject): void {
  const seed = chooseSeed();
  project.provide("fastCheckSeed", seed);
  process.stdout.write(`${seedLine(seed)}\n`);
}
