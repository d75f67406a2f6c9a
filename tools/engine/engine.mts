/**
 * `npm run engine`: builds the real Pulumi CLI from its Go modules (the release pinned in go.mod, here),
 * puts beside it the plugins a Node.js program needs, and prints the folder on its last line:
 * - `pulumi`, stamped with its version as the release build does (the automation API parses
 *   `pulumi version`, and an unstamped build still runs the update check);
 * - `pulumi-resource-pulumi-nodejs`, the dynamic-provider plugin, from the same release's sdk module;
 * - `pulumi-language-nodejs`, this repository's stand-in for the language host (pulumi-language-nodejs.cjs
 *   says why), and `pulumi-language-nodejs-codegen` from the module hosts/, its code generation;
 * - the language hosts of the other languages, from the module hosts/: the real ones for YAML
 *   (pulumi-yaml) and .NET (pulumi-dotnet), and this repository's stand-ins for Python and Go (whose
 *   modules the proxy refuses), with `pulumi-language-python-exec` from the sdk module beside them.
 *
 * A second run finds the folder (pulumi-engine.mts) and leaves every file there that is current
 * untouched: a `pulumi` run may be using them. Go's own build cache makes a rebuild after a change of pin
 * cheaper than the first, cold one. `--force` rebuilds anyway.
 *
 * While it works it says so: a start line with the expected time when it builds, then a line at least
 * every 15 s (engine-progress.mts). One run at a time holds the folder's lock (engine-lock.mts);
 * another waits for it, then reuses what it built.
 *
 * `SERVICE_ENGINE_GO` names the `go` to run (the tests name a fake, slow one); `SERVICE_ENGINE_CACHE`
 * the cache folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { installCopy, installText, partialPathOf, placeFile, removeLeftovers } from "./engine-files.mts";
import { acquireLock, type LockOwner, lockPathOf } from "./engine-lock.mts";
import { everyInterval, formatDuration, progressInterval } from "./engine-progress.mts";
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
/** The language hosts built from tools/engine/hosts, each into a binary named as the engine looks it up. */
const LANGUAGE_HOST_PACKAGES = [
  "./cmd/pulumi-language-python",
  "./cmd/pulumi-language-go",
  "./cmd/pulumi-language-nodejs-codegen",
  "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3",
];
/** What a build is expected to take on 2 cores, as measured (docs/engine.md): said before it starts. */
const EXPECTED = {
  cli: "about 5 minutes with an empty Go build cache, about 10 s with a warm one",
  hosts: "about 2 minutes with an empty Go build cache, under a minute with a warm one",
};

const force = process.argv.includes("--force");
const goBinary = process.env.SERVICE_ENGINE_GO || "go";
const everyMs = progressInterval();
/** The go command running now, stopped with this script. */
let running: ChildProcess | undefined;

function say(line: string): void {
  process.stderr.write(`npm run engine: ${line}\n`);
}

function fail(message: string): never {
  say(message);
  process.exit(1);
}

// Stopped (Ctrl-C, a CI job cancelled): stop the build too, and exit, which releases the lock. A run killed
// with SIGKILL leaves its lock, which the next run finds stale and takes over.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.once(signal, () => {
    running?.kill("SIGTERM");
    process.exit(code);
  });
}

/** A line of `go build -v`'s stderr that names a package being compiled, rather than an error. */
const PACKAGE_LINE = /^[\w.~/-]+$/;

/**
 * Runs go and returns its stdout. With `progress`, the build runs with -v, and a line says every
 * interval how long it has run and how many packages it has compiled.
 */
async function go(args: readonly string[], cwd: string, progress?: string): Promise<string> {
  const child = spawn(goBinary, progress ? [args[0]!, "-v", ...args.slice(1)] : args, {
    cwd,
    // The pin may need a newer Go than the one installed: let Go fetch that toolchain through the proxy.
    env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN || "auto", GOFLAGS: "-mod=readonly" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running = child;
  let stdout = "";
  let errors = "";
  let pending = "";
  let compiled = 0;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      if (progress && PACKAGE_LINE.test(line)) compiled += 1;
      else errors += `${line}\n`;
    }
  });
  const stop = progress
    ? everyInterval(
        (elapsed) => say(`${progress}: ${formatDuration(elapsed)} so far, ${compiled} packages compiled`),
        everyMs,
      )
    : () => {};
  const outcome = await new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, error }));
    child.once("close", (code) => resolve({ code }));
  });
  stop();
  running = undefined;
  if (outcome.error?.code === "ENOENT") {
    fail(
      `Go is not installed (no \`${goBinary}\` on PATH). Install Go 1.25 or later (https://go.dev/dl/, or ` +
        "your system's golang package), then run `npm run engine` again.",
    );
  }
  if (outcome.code !== 0) fail(explainGoFailure(args, errors + pending, cwd));
  return stdout;
}

/** One line for the failures a user can act on; Go's own output, indented, for the rest. */
function explainGoFailure(args: readonly string[], stderr: string, cwd: string): string {
  const refused = /reading https?:\/\/\S+?\/(\S+)\/@v\/(\S+?)\.(?:zip|info|mod): (\d{3} [^\n]+)/.exec(stderr);
  if (refused) {
    const [, module, version, status] = refused;
    return (
      `the Go module proxy refused ${module}@${version} (${status}). Check GOPROXY (now ` +
      `${process.env.GOPROXY || "Go's default"}), or pin a release it serves in tools/engine/go.mod.`
    );
  }
  const where = cwd === engineModuleDir ? "tools/engine/" : "tools/engine/hosts/";
  return `\`go ${args.join(" ")}\` failed in ${where}:\n${stderr.trimEnd().replace(/^/gm, "  ")}`;
}

const waitLine = (owner: LockOwner, waited: number) =>
  `waiting for another \`npm run engine\` (pid ${owner.pid}, since ${owner.since}) to finish with ` +
  `this folder: ${formatDuration(waited)} so far. It holds ${lockPathOf(binDir)}.`;

const version = pinnedPulumiVersion();
const binDir = engineBinDir();
const started = performance.now();
let waited = false;
mkdirSync(dirname(binDir), { recursive: true });
const release = await acquireLock(binDir, {
  reportEveryMs: everyMs,
  waiting: (owner, waitedMs) => {
    waited = true;
    say(waitLine(owner, waitedMs));
  },
  tookOver: (owner) =>
    say(`took over the lock of pid ${owner.pid}, which is gone (a build stopped midway); building again.`),
});
mkdirSync(binDir, { recursive: true });
removeLeftovers(binDir);

const hostsStamp = join(binDir, "language-hosts.stamp");
const hostSources = languageHostSources();
const buildCli = force || !existsSync(join(binDir, "pulumi"));
const buildHosts = force || !existsSync(hostsStamp) || readFileSync(hostsStamp, "utf8") !== hostSources;
if (buildCli || buildHosts) {
  const what = [
    buildCli && `the CLI (${EXPECTED.cli})`,
    buildHosts && `the language hosts (${EXPECTED.hosts})`,
  ];
  say(
    `building Pulumi ${version} into ${binDir}: ${what.filter(Boolean).join(", then ")}. ` +
      `A line every ${everyMs / 1000} s until it is done.`,
  );
}

// The CLI is built under a temporary name and moved into place last: a folder with `pulumi` in it is
// complete, and an interrupted build never looks finished.
const cliPartial = partialPathOf(join(binDir, "pulumi"));
if (buildCli) {
  await go(
    [
      "build",
      "-trimpath",
      "-tags",
      "osusergo,grpcnotrace",
      "-ldflags",
      `-X ${VERSION_VARIABLE}=${version}`,
      "-o",
      cliPartial,
      CLI_PACKAGE,
    ],
    engineModuleDir,
    "building the Pulumi CLI",
  );
}
const sdkDir = (await go(["list", "-m", "-f", "{{.Dir}}", SDK_MODULE], engineModuleDir)).trim();
if (!sdkDir)
  fail(`Go knows no folder for ${SDK_MODULE}: run \`go mod download\` in tools/engine/ and try again.`);
installCopy(
  join(sdkDir, "nodejs/dist/pulumi-resource-pulumi-nodejs"),
  join(binDir, "pulumi-resource-pulumi-nodejs"),
);
installCopy(join(engineModuleDir, "pulumi-language-nodejs.cjs"), join(binDir, "pulumi-language-nodejs"));
installCopy(
  join(sdkDir, "python/cmd/pulumi-language-python-exec"),
  join(binDir, "pulumi-language-python-exec"),
);

/**
 * Builds the language hosts of tools/engine/hosts into a temporary folder and moves each one that changed
 * into place, then the stamp of their sources. Go's build cache makes a rebuild after a change take seconds.
 */
async function buildLanguageHosts(): Promise<void> {
  const partial = partialPathOf(join(binDir, "language-hosts"));
  mkdirSync(partial);
  await go(
    [
      "build",
      "-trimpath",
      "-ldflags",
      `-X ${HOSTS_VERSION_VARIABLE}=${version}`,
      "-o",
      `${partial}/`,
      ...LANGUAGE_HOST_PACKAGES,
    ],
    hostsModuleDir,
    "building the language hosts",
  );
  for (const name of readdirSync(partial)) placeFile(join(partial, name), join(binDir, name));
  rmSync(partial, { recursive: true, force: true });
  installText(hostSources, hostsStamp);
}
if (buildHosts) await buildLanguageHosts();
if (buildCli) placeFile(cliPartial, join(binDir, "pulumi"));
release();

const seconds = ((performance.now() - started) / 1000).toFixed(1);
const what = buildCli
  ? "built"
  : buildHosts
    ? "language hosts rebuilt"
    : waited
      ? "already built (by the run this one waited for)"
      : "already built";
process.stderr.write(
  `Pulumi ${version}: ${what} in ${seconds} s. Put this folder first on PATH to use it:\n`,
);
process.stdout.write(`${binDir}\n`);
