import { defineConfig } from "vitest/config";

/**
 * The tests Stryker runs (stryker.config.mjs): only those that load the package from source, since a
 * mutant lives in the source and a test that goes through dist/ (the program, host, packed and CLI tests)
 * could never kill it. No globalSetup: building dist/ from mutated source in Stryker's sandbox would be
 * slow and racy between its workers. `npm run mutation` builds dist/ before Stryker copies the tree, so
 * the few client tests that load dist/ on purpose, as a second copy of the module, find it fresh.
 */
export default defineConfig({
  test: {
    include: [
      "test/webhook.plan.test.ts",
      "test/webhook.reconcile.test.ts",
      "test/domain.plan.test.ts",
      "test/lifecycle-kit.test.ts",
      "test/keyed-lock.test.ts",
      "test/api.rules.test.ts",
      "test/errors.test.ts",
      "test/receiver-verification.test.ts",
      "test/client.test.ts",
      "test/client-answers.test.ts",
      "test/client-integrations.test.ts",
      "test/client-options.test.ts",
      "test/client-paging.test.ts",
      "test/client-rate-limit.test.ts",
      "test/client-retry-policy.test.ts",
      "test/client-sessions.test.ts",
      "test/api-memo.test.ts",
      "test/api-path.test.ts",
      "test/request-rules.test.ts",
      "test/webhook-filter-rules.test.ts",
      "test/secret-redaction.test.ts",
      "test/domain-verification-fetch.test.ts",
      "test/webhook-reconcile.test.ts",
      "test/process-context.test.ts",
      "test/sandbox-sessions.test.ts",
      "test/sandbox-integrations.test.ts",
      "test/sandbox-images.test.ts",
      "test/sandbox-display.test.ts",
      "test/receiver.parse.test.ts",
      "test/receiver.handlers.test.ts",
      "test/receiver.sandbox.test.ts",
      "test/receiver.test.ts",
      "test/control-characters.test.ts",
      "test/sandbox.test.ts",
      "test/webhook.provider.test.ts",
      "test/webhook.faults.test.ts",
      "test/domain.provider.test.ts",
    ],
    setupFiles: ["test/setup/fast-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    unstubEnvs: true,
  },
});
