/**
 * The Go module's tag. The module lives in a folder of the repository (sdk/go), so `go get
 * <module>@v<version>` resolves it by the tag `<folder>/v<version>`, and the module proxy serves what
 * that tag holds. Before the tag is pushed (or, in a dry run, its commands printed), the module-proxy
 * folder of the release must hold exactly that commit's module: its go.mod, its version, and every file
 * of its zip, compared with the commit's by Git's object id.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { escapedPath } from "./go-proxy.mts";
import type { Manifest } from "./manifest.mts";
import { type Command, runCommand, say, shown } from "./publish-command.mts";
import { repositoryOfServer } from "./publish-github.mts";
import type { PublishOptions } from "./publish-options.mts";
import { zipEntries } from "./zip-entries.mts";

const root = join(import.meta.dirname, "../..");

function git(args: readonly string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Git's object id of a file's content (`git hash-object`, with no filter). */
function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

/** The files of `folder` at `commit`, by path inside it, with their object ids. */
function filesAt(commit: string, folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of git(["ls-tree", "-r", "-z", commit, "--", `${folder}/`]).split("\0")) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (match) files.set(match[2]!.slice(folder.length + 1), match[1]!);
  }
  return files;
}

/**
 * What differs between the module the release's proxy folder serves and the module at `commit`, in
 * `folder`: one line per difference, none when they are the same.
 */
export function proxyDifferences(
  release: string,
  go: Manifest["go"],
  folder: string,
  commit: string,
): string[] {
  const versions = join(release, go.proxy, escapedPath(go.module), "@v");
  const read = (file: string) =>
    existsSync(join(versions, file)) ? readFileSync(join(versions, file), "utf8") : "";
  const problems: string[] = [];
  if (!read("list").split("\n").includes(go.version))
    problems.push(`${versions}/list does not list ${go.version}`);
  const info = read(`${go.version}.info`);
  if (!info.includes(`"Version":"${go.version}"`))
    problems.push(`${go.version}.info does not give the version ${go.version}`);
  const goMod = read(`${go.version}.mod`);
  if (/^module\s+(\S+)/m.exec(goMod)?.[1] !== go.module)
    problems.push(`${go.version}.mod does not declare the module ${go.module}`);
  else if (goMod !== git(["show", `${commit}:${folder}/go.mod`]))
    problems.push(`${go.version}.mod is not ${folder}/go.mod at ${commit}`);

  const expected = filesAt(commit, folder);
  // The proxy adds the repository's LICENSE to a module in a folder that has none (go-proxy.mts does too).
  if (!expected.has("LICENSE")) {
    const license = /^\d+ blob ([0-9a-f]+)\tLICENSE$/m.exec(git(["ls-tree", commit, "--", "LICENSE"]));
    if (license) expected.set("LICENSE", license[1]!);
  }
  const zip = join(versions, `${go.version}.zip`);
  const prefix = `${go.module}@${go.version}/`;
  const zipped = existsSync(zip) ? zipEntries(zip) : new Map<string, Buffer>();
  if (!existsSync(zip)) problems.push(`${zip} does not exist`);
  for (const [name, content] of zipped) {
    const path = name.startsWith(prefix) ? name.slice(prefix.length) : name;
    const id = expected.get(path);
    if (id === undefined) problems.push(`the zip holds ${name}, which ${folder} at ${commit} has not`);
    else if (id !== blobId(content))
      problems.push(`${path} in the zip differs from ${folder}/${path} at ${commit}`);
    expected.delete(path);
  }
  for (const path of expected.keys()) problems.push(`${folder}/${path} at ${commit} is not in the zip`);
  return problems;
}

/**
 * Checks the tag's name and that the proxy folder holds the commit's module, then tags the commit and
 * pushes the tag; a dry run prints the git commands instead.
 */
export function publishGo(options: PublishOptions): void {
  const { manifest, release } = options;
  const { module, version, tag } = manifest.go;
  const repository = options.repo ?? repositoryOfServer(manifest.plugin.server);
  const repositoryModule = `github.com/${repository}`;
  if (!module.startsWith(`${repositoryModule}/`))
    throw new Error(
      `the module ${module} is not in the repository ${repositoryModule}, so no tag of it can publish the module: correct the module line of sdk/go/go.mod (npm run sdk).`,
    );
  const folder = module.slice(repositoryModule.length + 1);
  if (version !== `v${manifest.version}`)
    throw new Error(
      `MANIFEST.json's Go version is ${version}, not v${manifest.version}: run \`npm run release\` again.`,
    );
  if (tag !== `${folder}/${version}`)
    throw new Error(
      `MANIFEST.json names the tag ${tag}, but \`go get ${module}@${version}\` looks for the tag ${folder}/${version}: run \`npm run release\` again.`,
    );
  let commit: string;
  try {
    commit = git(["rev-parse", "--verify", `${options.commit}^{commit}`]).trim();
  } catch {
    throw new Error(
      `${options.commit} is not a commit of this repository: pass --commit <the tagged commit>.`,
    );
  }
  const differences = proxyDifferences(release, manifest.go, folder, commit);
  if (differences.length > 0)
    throw new Error(
      `the tag ${tag} would publish another module than the release's proxy folder holds: ${differences.join("; ")}. Commit ${folder}, then run \`npm run release\` again.`,
    );
  say("go", `${module}@${version}: the proxy folder holds exactly ${folder} at ${commit}.`);
  const tagged =
    git(["tag", "--list", tag]).trim() !== "" ? git(["rev-parse", `${tag}^{commit}`]).trim() : undefined;
  if (tagged && tagged !== commit)
    throw new Error(
      `the tag ${tag} exists already, on ${tagged}, not ${commit}: a published version never moves; release a new version.`,
    );
  const commands: Command[] = [
    ...(tagged ? [] : [{ program: "git", args: ["tag", tag, commit] }]),
    { program: "git", args: ["push", "origin", tag] },
  ];
  for (const command of commands) {
    if (options.dryRun) say("go", `dry run: would run ${shown(command)}`);
    else runCommand("go", { ...command, cwd: root });
  }
}
