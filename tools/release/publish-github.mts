/**
 * The GitHub release `v<version>`, which the SDKs' pulumi-plugin.json names as the plugin's `server`
 * (`github://api.github.com/<owner>/<repo>`): the engine asks that repository for the release
 * `v<version>`, then for the asset `pulumi-resource-service-v<version>-<os>-<arch>.tar.gz`. Before
 * `gh release create` runs (or, in a dry run, is printed), every asset the engine will ask for must be in
 * the release folder under that very name, with the checksum MANIFEST.json gives it.
 */
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CHECKSUMS_FILE, MANIFEST_FILE, type Manifest, sha256Of } from "./manifest.mts";
import { type Command, runCommand, say, shown } from "./publish-command.mts";
import type { PublishOptions } from "./publish-options.mts";
import { PLUGIN_TARGETS, pluginTarball } from "./targets.mts";

/** The repository (`owner/name`) that a `github://api.github.com/<owner>/<name>` plugin server names. */
export function repositoryOfServer(server: string): string {
  const repository = /^github:\/\/api\.github\.com\/([^/]+\/[^/]+?)\/?$/.exec(server)?.[1];
  if (!repository)
    throw new Error(
      `the SDKs' plugin server is ${server}, not a GitHub release (github://api.github.com/<owner>/<repo>): set pluginDownloadURL in the schema's source and run \`npm run schema\` and \`npm run sdk\`.`,
    );
  return repository;
}

/**
 * The files of the GitHub release, by name in the release folder `release`: each plugin tarball the
 * engine asks for, then the SBOM, SHA256SUMS and MANIFEST.json. Every problem found is named at once.
 */
export function releaseAssets(release: string, manifest: Manifest): string[] {
  const problems: string[] = [];
  const present = (file: string) => {
    if (!existsSync(join(release, file))) {
      problems.push(`${file} is not in ${release}`);
      return false;
    }
    return true;
  };
  const plugins = PLUGIN_TARGETS.map((target) => {
    const requested = pluginTarball(manifest.version, target);
    const listed = manifest.plugin.files.find((f) => f.os === target.os && f.arch === target.arch);
    if (!listed) problems.push(`MANIFEST.json lists no plugin for ${target.os}-${target.arch}`);
    else if (listed.file !== requested)
      problems.push(
        `the plugin for ${target.os}-${target.arch} is ${listed.file}, but the engine asks for ${requested}`,
      );
    if (present(requested)) {
      const sha256 = manifest.artifacts.find((a) => a.file === requested)?.sha256;
      if (sha256 !== sha256Of(join(release, requested)))
        problems.push(`${requested} is not the file whose SHA-256 MANIFEST.json gives (${sha256 ?? "none"})`);
    }
    return requested;
  });
  const sboms = manifest.artifacts.filter((a) => a.kind === "sbom").map((a) => a.file);
  const others = [...sboms, CHECKSUMS_FILE, MANIFEST_FILE].filter(present);
  if (problems.length > 0)
    throw new Error(
      `the GitHub release would miss what the engine downloads: ${problems.join("; ")}. Run \`npm run release\` again.`,
    );
  return [...plugins, ...others];
}

/**
 * Checks the assets, then creates the release `v<version>` in the repository with them (`gh`, which reads
 * GH_TOKEN itself). A dry run prints the command instead, and with `copyTo` copies the assets there.
 */
export function publishGithub(options: PublishOptions): void {
  const { manifest, release } = options;
  const named = repositoryOfServer(manifest.plugin.server);
  const repository = options.repo ?? named;
  if (repository !== named)
    throw new Error(
      `the SDKs download the plugin from ${manifest.plugin.server} (${named}), but this release would go to ${repository}: publish from ${named}, or change pluginDownloadURL and regenerate the SDKs.`,
    );
  const tag = `v${manifest.version}`;
  const assets = releaseAssets(release, manifest);
  for (const file of manifest.plugin.files)
    say(
      "github",
      `the engine downloads ${file.file} from the release ${tag} of ${repository} (${file.os}-${file.arch}).`,
    );
  for (const { os, arch, reason } of manifest.plugin.unbuilt)
    say(
      "github",
      `not in this release: the plugin for ${os}-${arch}, so the engine's download fails there (${reason}).`,
    );
  const create: Command = {
    program: "gh",
    args: [
      "release",
      "create",
      tag,
      "--repo",
      repository,
      "--title",
      tag,
      "--notes",
      "See CHANGELOG.md.",
      ...assets,
    ],
    cwd: release,
  };
  if (!options.dryRun) {
    runCommand("github", create);
    return;
  }
  say("github", `dry run: would run ${shown(create)} (in ${release}), with GH_TOKEN from the environment.`);
  if (options.copyTo) {
    mkdirSync(options.copyTo, { recursive: true });
    for (const file of assets) cpSync(join(release, file), join(options.copyTo, file));
    say(
      "github",
      `dry run: the ${assets.length} assets copied to ${options.copyTo}, a stand-in for the release.`,
    );
  }
}
