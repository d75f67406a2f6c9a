/**
 * `npm run mutation`: Stryker over the pure modules, with the tests that load them from source
 * (vitest.mutation.config.mts). Incremental: a second run only re-tests the mutants whose code or
 * covering tests changed since the last run (pass --force for a full run). Sized for two cores.
 *
 * Reports go under node_modules/.cache/stryker/ (open mutation.html there), out of git's and Biome's
 * way: the report files are generated, and too large for Biome to read.
 */
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.mts", related: false },
  mutate: [
    "contract/**/*.ts",
    "provider/client/**/*.ts",
    "provider/context/**/*.ts",
    "provider/errors/**/*.ts",
    "provider/receiver/**/*.ts",
    "provider/webhook/plan.ts",
    "provider/webhook/reconcile.ts",
    "provider/domain/*-plan.ts",
    "provider/lifecycle/check.ts",
    "provider/lifecycle/unknowns.ts",
    "provider/lifecycle/connection.ts",
    "provider/lifecycle/input-comparison.ts",
    "provider/lifecycle/refresh.ts",
    "provider/lifecycle/secret-hash.ts",
    "provider/context/keyed-lock.ts",
  ],
  coverageAnalysis: "perTest",
  concurrency: 2,
  incremental: true,
  incrementalFile: "node_modules/.cache/stryker/incremental.json",
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "node_modules/.cache/stryker/mutation.html" },
  jsonReporter: { fileName: "node_modules/.cache/stryker/mutation.json" },
  thresholds: { high: 90, low: 80, break: null },
};
