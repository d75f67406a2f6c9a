import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINE_MISSING_REASON, type EngineNeeds, engineGate } from "../../helpers/engine";
import { usePathFolders } from "../../helpers/path-folders";

const pathDir = usePathFolders("pulumi-cli-search-");

describe("the CLI gate of the end-to-end tests", () => {
  const empty = pathDir();
  // An engine cache with nothing built in it: only PATH can offer a CLI.
  const noEngine = { SERVICE_ENGINE_CACHE: pathDir() };
  const pulumiCliGate = (env: NodeJS.ProcessEnv, needs?: EngineNeeds) =>
    engineGate({ ...noEngine, ...env }, needs);

  it("skips when the CLI is missing, fails when SERVICE_REQUIRE_PULUMI_CLI=1, runs when it is there", () => {
    expect(pulumiCliGate({ PATH: empty })).toMatchObject({ skipped: true, missingButRequired: false });
    expect(pulumiCliGate({ PATH: empty, SERVICE_REQUIRE_PULUMI_CLI: "1" })).toMatchObject({
      skipped: false,
      missingButRequired: true,
    });
    if (process.platform !== "win32") {
      const bin = pathDir({ pulumi: "exe" });
      expect(pulumiCliGate({ PATH: bin, SERVICE_REQUIRE_PULUMI_CLI: "1" })).toMatchObject({
        cli: join(bin, "pulumi"),
        skipped: false,
        missingButRequired: false,
      });
    }
  });

  // Regression (issue 27, item 11): with a CLI found but no `go` on PATH, test/e2e/languages.test.ts
  // crashed with `spawnSync go ENOENT` instead of skipping.
  it.skipIf(process.platform === "win32")(
    "skips tests that need go and python3 with one line when PATH lacks them, and fails when required",
    () => {
      const needs = { tools: ["python3", "go"] };
      const cliOnly = pathDir({ pulumi: "exe" });
      const skipped = pulumiCliGate({ PATH: cliOnly }, needs);
      expect(skipped).toMatchObject({
        cli: join(cliOnly, "pulumi"),
        missingTools: ["python3", "go"],
        skipped: true,
        missingButRequired: false,
      });
      expect(skipped.reason).toBe(
        "SKIPPED: end-to-end tests that run python3 and go did not run, because python3 and go are not on PATH. " +
          "Install Python 3 with venv and pip and Go 1.25 or later to run them.",
      );

      const withPython = pathDir({ pulumi: "exe", python3: "exe" });
      const required = pulumiCliGate({ PATH: withPython, SERVICE_REQUIRE_PULUMI_CLI: "1" }, needs);
      expect(required).toMatchObject({ missingTools: ["go"], skipped: false, missingButRequired: true });
      expect(required.reason).toBe(
        "go is not on PATH, and SERVICE_REQUIRE_PULUMI_CLI=1 says the end-to-end tests must run here: " +
          "install Go 1.25 or later, or unset the variable to skip the tests that need it.",
      );

      const everything = pathDir({ pulumi: "exe", python3: "exe", go: "exe" });
      expect(pulumiCliGate({ PATH: everything, SERVICE_REQUIRE_PULUMI_CLI: "1" }, needs)).toMatchObject({
        missingTools: [],
        reason: undefined,
        skipped: false,
        missingButRequired: false,
      });
      // A file that needs nothing but the CLI runs whatever else PATH lacks.
      expect(pulumiCliGate({ PATH: cliOnly })).toMatchObject({ reason: undefined, skipped: false });
    },
  );

  it("makes an end-to-end test file fail, not skip, when the CLI is required and missing", () => {
    // Run the real file under vitest as CI would, with a PATH that has no pulumi on it.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...noEngine,
      PATH: empty,
      SERVICE_REQUIRE_PULUMI_CLI: "1",
    };
    for (const key of Object.keys(env)) if (key.startsWith("VITEST")) delete env[key];
    const run = spawnSync(
      process.execPath,
      [
        join(dirname(require.resolve("vitest/package.json")), "vitest.mjs"),
        "run",
        "--project",
        "e2e",
        "test/e2e/quickstart.test.ts",
        "--reporter=dot",
      ],
      { cwd: join(__dirname, "../../.."), env, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stdout + run.stderr).toContain(ENGINE_MISSING_REASON.slice(0, 60));
  });
});
