import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Many tests load the package by its name, as a user's program does, which resolves to dist/: build
    // it first, so that `npx vitest` alone can never run a stale build.
    globalSetup: ["test/setup/build.ts", "test/setup/property-seed.ts"],
    // Property tests run with one logged seed per run, so that a failure can be replayed (FC_SEED).
    setupFiles: ["test/setup/fast-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    server: {
      deps: {
        // The built package (dist/) is loaded by Node, as a program loads it, whoever imports it: a test
        // that requires it and a program under test that imports it must share one copy of its bundles,
        // whose entry holds process state that may be declared once (context/process.ts).
        external: [/[\\/]dist[\\/]/],
      },
    },
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**"],
          // Webhook creates leave notes under PULUMI_HOME until their outcome is known: keep this run's
          // notes away from the user's ~/.pulumi and from earlier runs.
          env: { PULUMI_HOME: mkdtempSync(join(tmpdir(), "service-pulumi-test-home-")) },
        },
      },
      {
        extends: true,
        test: {
          // The real Pulumi CLI against the sandbox (`npm run engine` builds it). Two files at a time: a
          // command spends much of its time waiting between the engine, the language host and the provider
          // processes, so a second file fills the 2 cores; each file has its own sandbox, stacks and
          // PULUMI_HOME, so files share nothing. `npm test` runs this project after the unit one, never
          // beside it: unit tests that pack the package rebuild dist/, which the programs under the engine
          // load.
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // They install and publish dist/release, which `npm run test:release` builds first.
          exclude: ["test/e2e/release*.test.ts"],
          maxWorkers: 2,
          testTimeout: 300_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The release artifacts installed as users install them (`npm run test:release`, which builds
          // dist/release first): registries on 127.0.0.1, the real engine, the sandbox; and the release
          // workflow's publishing steps run against those registries, or as dry runs.
          name: "release",
          include: ["test/e2e/release*.test.ts"],
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
