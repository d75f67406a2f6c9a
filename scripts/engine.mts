/**
 * `npm run engine`: builds the real Pulumi CLI from its Go modules (the release pinned in engine/go.mod),
 * puts beside it the plugins a Node.js program needs, and prints the folder on its last line:
 * - `pulumi`, stamped with its version as the release build does (the automation API parses
 *   `pulumi version`, and an unstamped build still runs the update check);
 * - `pulumi-resource-pulumi-nodejs`, the dynamic-provider plugin, from the same release's sdk module;
 * - `pulumi-language-nodejs`, this repository's stand-in for the language host (engine/pulumi-language-nodejs.cjs
 *   says why);
 * - the language hosts of the other languages, from the module engine/hosts: the real ones for YAML
 *   (pulumi-yaml) and .NET (pulumi-dotnet), and this repository's stand-ins for Python and Go (whose
 *   modules the proxy refuses), with `pulumi-language-python-exec` from the sdk module beside them.
 *
 * A second run finds the folder (scripts/pulumi-engine.mts) and only refreshes the two scripts: seconds.
 * Go's own build cache makes a rebuild after a change of pin cheaper than the first, cold one.
 * `--force` rebuilds anyway.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  engineBinDir,
  engineModuleDir,
  hostsModuleDir,
  languageHostSources,
  pinnedPulumiVersion,
} from "./pulumi-engine.mts";

const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
const SDK_MODULE = "github.com/pulumi/pulumi/sdk/v3";
const VERSION_VARIABLE = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";
const HOSTS_VERSION_VARIABLE = "github.com/service-pulumi/service-pulumi/engine/hosts/langhost.Version";
/** The language hosts built from engine/hosts, each into a binary named as the engine looks it up. */
const LANGUAGE_HOST_PACKAGES = [
  "./cmd/pulumi-language-python",
  "./cmd/pulumi-language-go",
  "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3",
];

function fail(message: string): never {
  process.stderr.write(`npm run engine: ${message}\n`);
  process.exit(1);
}

function go(args: readonly string[], cwd = engineModuleDir): string {
  const run = spawnSync("go", args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // The pin may need a newer Go than the one installed: let Go fetch that toolchain through the proxy.
    env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN || "auto", GOFLAGS: "-mod=readonly" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") {
    fail(
      "Go is not installed (no `go` on PATH). Install Go 1.25 or later (https://go.dev/dl/, or your system's " +
        "golang package), then run `npm run engine` again.",
    );
  }
  if (run.status !== 0) fail(explainGoFailure(args, run.stderr));
  return run.stdout;
}

/** One line for the failures a user can act on; Go's own output, indented, for the rest. */
function explainGoFailure(args: readonly string[], stderr: string): string {
  const refused = /reading https?:\/\/\S+?\/(\S+)\/@v\/(\S+?)\.(?:zip|info|mod): (\d{3} [^\n]+)/.exec(stderr);
  if (refused) {
    const [, module, version, status] = refused;
    return (
      `the Go module proxy refused ${module}@${version} (${status}). Check GOPROXY (now ` +
      `${process.env.GOPROXY || "Go's default"}), or pin a release it serves in engine/go.mod.`
    );
  }
  return `\`go ${args.join(" ")}\` failed in engine/:\n${stderr.trimEnd().replace(/^/gm, "  ")}`;
}

function installScript(from: string, to: string): void {
  rmSync(to, { force: true });
  copyFileSync(from, to);
  // Files copied out of Go's module cache are read-only and lose their run bit.
  chmodSync(to, 0o755);
}

const version = pinnedPulumiVersion();
const binDir = engineBinDir();
const started = performance.now();
let built = false;
if (process.argv.includes("--force") || !existsSync(join(binDir, "pulumi"))) {
  // Built aside and moved into place whole, so that an interrupted build never looks finished.
  const partial = `${binDir}.partial-${process.pid}`;
  mkdirSync(partial, { recursive: true });
  go([
    "build",
    "-trimpath",
    "-tags",
    "osusergo,grpcnotrace",
    "-ldflags",
    `-X ${VERSION_VARIABLE}=${version}`,
    "-o",
    join(partial, "pulumi"),
    CLI_PACKAGE,
  ]);
  rmSync(binDir, { recursive: true, force: true });
  renameSync(partial, binDir);
  built = true;
}
const sdkDir = go(["list", "-m", "-f", "{{.Dir}}", SDK_MODULE]).trim();
if (!sdkDir) fail(`Go knows no folder for ${SDK_MODULE}: run \`go mod download\` in engine/ and try again.`);
installScript(
  join(sdkDir, "nodejs/dist/pulumi-resource-pulumi-nodejs"),
  join(binDir, "pulumi-resource-pulumi-nodejs"),
);
installScript(join(engineModuleDir, "pulumi-language-nodejs.cjs"), join(binDir, "pulumi-language-nodejs"));
installScript(
  join(sdkDir, "python/cmd/pulumi-language-python-exec"),
  join(binDir, "pulumi-language-python-exec"),
);
const hostsBuilt = buildLanguageHosts();

/**
 * Builds the language hosts of engine/hosts into the folder, unless the stamp there says the same sources
 * were built already. Go's build cache makes a rebuild after a change take seconds.
 */
function buildLanguageHosts(): boolean {
  const stamp = join(binDir, "language-hosts.stamp");
  const sources = languageHostSources();
  if (!process.argv.includes("--force") && existsSync(stamp) && readFileSync(stamp, "utf8") === sources) {
    return false;
  }
  go(
    [
      "build",
      "-trimpath",
      "-ldflags",
      `-X ${HOSTS_VERSION_VARIABLE}=${version}`,
      "-o",
      `${binDir}/`,
      ...LANGUAGE_HOST_PACKAGES,
    ],
    hostsModuleDir,
  );
  writeFileSync(stamp, sources);
  return true;
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
const what = built ? "built" : hostsBuilt ? "language hosts rebuilt" : "already built";
process.stderr.write(
  `Pulumi ${version}: ${what} in ${seconds} s. ` + "Put this folder first on PATH to use it:\n",
);
process.stdout.write(`${binDir}\n`);
