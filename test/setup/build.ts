import { build } from "../../tools/build/build.mts";

/**
 * Compiles the package into dist/, and bundles its runtime, before any test runs. Many tests load the
 * package by its name, as a user's program does, which resolves to dist/: building here means
 * `npx vitest` alone can never run a stale build. The compile is incremental and the bundle takes a
 * fraction of a second, so an unchanged tree costs about two.
 */
export default function setup(): void {
  try {
    build();
  } catch (error) {
    throw new Error(`${(error as Error).message}\nThe tests would run a stale dist/, so none ran.`);
  }
}
