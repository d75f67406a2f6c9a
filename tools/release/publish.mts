/**
 * `npm run release:publish -- <target> [options]`: publishes one target of a release folder (dist/release,
 * which `npm run release` writes), reading what to publish from its MANIFEST.json. The release workflow
 * (.github/workflows/release.yml) runs each target against the real registries; `npm run test:release`
 * runs the same code against registries on 127.0.0.1, or as a dry run where nothing here can stand in
 * (test/e2e/release-publish.test.ts). Tokens come from the environment only and are never printed.
 *
 *   npm     npm publish the tarball [--registry <url>] [--provenance]   (NODE_AUTH_TOKEN, or trusted publishing)
 *   pypi    twine check and upload the wheel and sdist [--registry <upload url>]
 *                                                        (TWINE_USERNAME/TWINE_PASSWORD, or trusted publishing)
 *   github  check the plugin assets the engine asks for, gh release create [--repo] [--dry-run [--copy-to <dir>]]
 *   go      check the module against the tagged commit, git tag and push [--repo] [--commit] [--dry-run]
 *   nuget   dotnet pack and nuget push [--registry <source>] [--dry-run]   (NUGET_API_KEY)
 *   maven   says why there is nothing to publish yet
 * Every target takes --release <folder> (dist/release).
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readManifest } from "./manifest.mts";
import { publishGithub } from "./publish-github.mts";
import { publishGo } from "./publish-go.mts";
import type { PublishOptions } from "./publish-options.mts";
import { publishMaven, publishNpm, publishNuget, publishPypi } from "./publish-registries.mts";

const root = join(import.meta.dirname, "../..");

/** The command line's options: every target takes --release, and some of the others (TARGETS). */
const OPTIONS = {
  release: { type: "string" },
  registry: { type: "string" },
  provenance: { type: "boolean" },
  "dry-run": { type: "boolean" },
  repo: { type: "string" },
  commit: { type: "string" },
  "copy-to": { type: "string" },
} as const;
/** An option some targets take, by its command-line name: any other given to a target is refused. */
type OptionName = Exclude<keyof typeof OPTIONS, "release">;

/** Each target's step, and the options it takes beside --release. */
const TARGETS: Readonly<
  Record<string, { step: (options: PublishOptions) => void; takes: readonly OptionName[] }>
> = {
  npm: { step: publishNpm, takes: ["registry", "provenance"] },
  pypi: { step: publishPypi, takes: ["registry"] },
  github: { step: publishGithub, takes: ["repo", "dry-run", "copy-to"] },
  go: { step: publishGo, takes: ["repo", "commit", "dry-run"] },
  nuget: { step: publishNuget, takes: ["registry", "dry-run"] },
  maven: { step: publishMaven, takes: [] },
};

const USAGE = `Usage: npm run release:publish -- <${Object.keys(TARGETS).join("|")}> [--release <folder>] [options]; tools/release/publish.mts lists each target's options.`;

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: OPTIONS,
  });
  const name = positionals[0] ?? "";
  const target = TARGETS[name];
  if (!target || positionals.length !== 1)
    throw new Error(`no target named ${positionals.join(" ") || "(none)"}. ${USAGE}`);
  const refused = Object.keys(values).filter(
    (option) => option !== "release" && !target.takes.includes(option as OptionName),
  );
  if (refused.length > 0)
    throw new Error(
      `${name} takes ${target.takes.map((o) => `--${o}`).join(", ") || "no option"} beside --release, not ${refused.map((o) => `--${o}`).join(", ")}.`,
    );
  const release = resolve(values.release ?? join(root, "dist/release"));
  target.step({
    release,
    manifest: readManifest(release),
    registry: values.registry,
    provenance: values.provenance ?? false,
    dryRun: values["dry-run"] ?? false,
    repo: values.repo,
    commit: values.commit ?? "HEAD",
    copyTo: values["copy-to"] && resolve(values["copy-to"]),
  });
}

try {
  main();
} catch (error) {
  process.stderr.write(`release:publish: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
