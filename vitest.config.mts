import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Many tests load the package by its name, as a user's program does, which resolves to dist/: build
    // it first, so that `npx vitest` alone can never run a stale build.
    globalSetup: ["test/setup/build.ts", "test/setup/property-seed.ts"],
    // Property tests run with one logged seed per run, so that a failure can be replayed (FC_SEED).
    setupFiles: ["test/setup/fast-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    unstubEnvs: true,
  },
});
