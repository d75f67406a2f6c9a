/**
 * The publishing steps that upload to a package registry: npm, PyPI and NuGet, each to the registry its
 * options name (a local one in `npm run test:release`), and Maven Central, which has nothing to publish
 * while no Java SDK can be generated. Credentials come from the environment only, and are never printed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Command, runCommand, say, secret, shown } from "./publish-command.mts";
import type { PublishOptions } from "./publish-options.mts";
import { pythonTool } from "./python.mts";

const root = join(import.meta.dirname, "../..");

const NPM_REGISTRY = "https://registry.npmjs.org/";
const PYPI_UPLOAD = "https://upload.pypi.org/legacy/";
const NUGET_SOURCE = "https://api.nuget.org/v3/index.json";
/** twine 6.1 and later publish to PyPI by trusted publishing when no password is given (6.2.0 was read). */
const TWINE_PACKAGE = "twine==6.2.0";

/** Whether a .NET SDK runs here: `dotnet --version` answers. */
function hasDotnet(): boolean {
  try {
    execFileSync("dotnet", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * npm: `npm publish` of the tarball, with `--provenance` where the CI's OIDC token can sign it. With
 * NODE_AUTH_TOKEN set, a temporary user config names that variable (npm reads its value itself); without
 * it, npm authenticates by trusted publishing.
 */
export function publishNpm(options: PublishOptions): void {
  const registry = options.registry ?? NPM_REGISTRY;
  // Absolute: npm would take a relative path for a folder or a package name.
  const tarball = join(options.release, options.manifest.npm.file);
  const args = ["publish", tarball, "--access", "public", "--registry", registry];
  if (options.provenance) args.push("--provenance");
  else
    say(
      "npm",
      "without --provenance: provenance is signed with the OIDC token of a CI run (GitHub Actions, id-token: write), which this run has not; the release workflow passes --provenance.",
    );
  const config = process.env.NODE_AUTH_TOKEN ? mkdtempSync(join(tmpdir(), "release-npm-")) : undefined;
  try {
    if (config) {
      const url = new URL(registry);
      const key = `//${url.host}${url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`}`;
      writeFileSync(join(config, "npmrc"), `${key}:_authToken=\${NODE_AUTH_TOKEN}\n`);
      args.push("--userconfig", join(config, "npmrc"));
      say("npm", `authenticating to ${registry} with the token in NODE_AUTH_TOKEN.`);
    } else say("npm", "no NODE_AUTH_TOKEN: npm authenticates by trusted publishing (the CI's OIDC token).");
    runCommand("npm", { program: "npm", args });
  } finally {
    if (config) rmSync(config, { recursive: true, force: true });
  }
}

/**
 * PyPI: `twine check`, then `twine upload` of the wheel and the sdist. With TWINE_PASSWORD (and
 * TWINE_USERNAME) set, twine sends them; without, it uploads to PyPI by trusted publishing.
 */
export function publishPypi(options: PublishOptions): void {
  const url = options.registry ?? PYPI_UPLOAD;
  const { wheel, sdist } = options.manifest.python;
  const files = [wheel, sdist].map((file) => join(options.release, file));
  const twine = pythonTool("twine", TWINE_PACKAGE);
  runCommand("pypi", { program: twine, args: ["-m", "twine", "check", ...files] });
  say(
    "pypi",
    process.env.TWINE_PASSWORD
      ? `uploading to ${url} with the credentials in TWINE_USERNAME and TWINE_PASSWORD.`
      : `no TWINE_PASSWORD: twine uploads to ${url} by trusted publishing (the CI's OIDC token).`,
  );
  runCommand("pypi", {
    program: twine,
    args: [
      "-m",
      "twine",
      "upload",
      "--non-interactive",
      "--disable-progress-bar",
      "--repository-url",
      url,
      ...files,
    ],
  });
}

/**
 * NuGet: `dotnet pack` of sdk/dotnet at the release's version, then `dotnet nuget push` with the key in
 * NUGET_API_KEY. Where no .NET SDK is installed, a dry run says so and prints the commands; a real run
 * fails.
 */
export function publishNuget(options: PublishOptions): void {
  const { package: name, version } = options.manifest.nuget;
  // A folder of its own: the package is built from sdk/dotnet here, never part of the release folder.
  const out = join(tmpdir(), `release-nuget-${version}`);
  const pack: Command = {
    program: "dotnet",
    args: [
      "pack",
      join(root, "sdk/dotnet"),
      "--configuration",
      "Release",
      "--output",
      out,
      `-p:Version=${version}`,
    ],
  };
  const push: Command = {
    program: "dotnet",
    args: [
      "nuget",
      "push",
      join(out, `${name}.${version}.nupkg`),
      "--api-key",
      secret("NUGET_API_KEY"),
      "--source",
      options.registry ?? NUGET_SOURCE,
    ],
  };
  if (!hasDotnet()) {
    if (!options.dryRun)
      throw new Error(
        "no .NET SDK: `dotnet --version` does not run. Install one (actions/setup-dotnet in the release workflow), then run this step again.",
      );
    say(
      "nuget",
      "cannot run here: no .NET SDK (`dotnet --version` does not run). The release workflow installs one, then runs:",
    );
    for (const command of [pack, push]) say("nuget", `  ${shown(command)}`);
    return;
  }
  runCommand("nuget", pack);
  if (options.dryRun) say("nuget", `dry run: would run ${shown(push)}`);
  else runCommand("nuget", push);
}

/**
 * Maven Central: a release publishes the Java SDK once one can be generated; until then this step says
 * why there is nothing to publish.
 */
export function publishMaven(options: PublishOptions): void {
  const { groupId, artifactId, version, built, reason } = options.manifest.maven;
  const coordinates = `${groupId}:${artifactId}:${version}`;
  if (!built) {
    say(
      "maven",
      `cannot run here: no Java SDK in this release (${reason ?? "MANIFEST.json says it was not built"}), so nothing is published to Maven Central as ${coordinates}.`,
    );
    return;
  }
  throw new Error(
    `MANIFEST.json lists ${coordinates} as built, but no step publishes it to Maven Central yet: write one in tools/release/publish-registries.mts before tagging.`,
  );
}
