/**
 * The provider plugin as one executable per platform, which runs with no Node.js installed: Node's
 * single-executable application. The plugin's bundle becomes a blob (made by Node at the target's exact
 * version), `postject` injects it into that platform's Node binary from the npm registry, and each
 * executable goes into the tarball the engine downloads, beside the LICENSE. A macOS executable loses
 * Node's signature before the injection and is signed ad hoc after it (macho.mts).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { rcodesign, removeCodeSignature, signatureProblems } from "./macho.mts";
import {
  executableName,
  hostNodePackage,
  PLUGIN_TARGETS,
  type PluginTarget,
  pluginTarball,
} from "./targets.mts";

const root = join(import.meta.dirname, "../..");
/** Node binaries fetched from the npm registry, kept between runs (the first run fetches ~140 MB). */
const NODE_CACHE = join(root, "node_modules/.cache/service-pulumi-release/node");
/** The fuse Node looks for to know that a blob was injected (Node's documentation names it). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** postject's command line, run in a child process: its injector prints warnings of its own on stderr. */
const POSTJECT = createRequire(import.meta.url).resolve("postject/dist/cli.js");

/** Node's binary of `nodePackage` at `version`, fetched once with `npm pack` into the cache. */
function nodeBinary(nodePackage: string, version: string, nodeFile: string): string {
  const dir = join(NODE_CACHE, `${nodePackage}-${version}`);
  const binary = join(dir, basename(nodeFile));
  if (existsSync(binary)) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("npm", ["pack", `${nodePackage}@${version}`, "--silent", "--pack-destination", dir], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const tarball = readdirSync(dir).find((file) => file.endsWith(".tgz"));
    if (!tarball) throw new Error("npm pack wrote no tarball");
    execFileSync("tar", ["-xzf", tarball, "--strip-components=2", `package/${nodeFile}`], { cwd: dir });
    rmSync(join(dir, tarball));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `Could not fetch Node ${version} for the plugin binary (npm package ${nodePackage}): ${(error as Error).message}. ` +
        `Check that \`npm view ${nodePackage}@${version}\` answers, or pick a version it serves in tools/release/targets.mts.`,
    );
  }
  return binary;
}

/**
 * The single-executable blob of `bundle` for Node `version`, made by that Node on this machine; with V8's
 * compiled code of the bundle when `codeCache` (the plugin then starts about twice as fast), which only a
 * binary of this machine's platform can load: on any other, a code cache can crash it at start.
 */
function seaBlob(bundle: string, version: string, codeCache: boolean, workDir: string): string {
  const host = hostNodePackage();
  const node = nodeBinary(host, version, host.startsWith("node-win") ? "bin/node.exe" : "bin/node");
  const name = `sea-${version}${codeCache ? "-code-cache" : ""}`;
  const blob = join(workDir, `${name}.blob`);
  const config = join(workDir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: codeCache,
      useSnapshot: false,
      // NODE_OPTIONS must not reach the plugin: a team's `--require ./.pnp.cjs`, `--import tsx` or APM agent
      // would break it, or load foreign code into the process that holds the API token.
      execArgvExtension: "none",
    }),
  );
  execFileSync(node, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "pipe"] });
  return blob;
}

/**
 * Signs a macOS executable ad hoc (no certificate), as Apple requires of every arm64 executable, with
 * rcodesign, and fails the build when `rcodesign verify` finds the signature wrong.
 */
function signAdHoc(executable: string, platform: string): void {
  execFileSync(rcodesign(), ["sign", executable], { stdio: ["ignore", "ignore", "pipe"] });
  const problems = signatureProblems(executable);
  if (problems.length > 0)
    throw new Error(
      `The ${platform} plugin binary's ad hoc signature does not verify: ${problems.join("; ")}. Check the rcodesign version in tools/release/macho.mts.`,
    );
}

/** A built plugin tarball: its platform and file. */
export interface PluginFile {
  readonly os: string;
  readonly arch: string;
  readonly file: string;
}

/**
 * Builds one tarball per target into `outDir` from the plugin's `bundle`, working in `workDir`; `mtime`
 * (seconds) stamps every file in them, so that the same sources give the same tarballs.
 */
export async function buildPluginBinaries(options: {
  readonly bundle: string;
  readonly version: string;
  readonly workDir: string;
  readonly outDir: string;
  readonly mtime: number;
  readonly targets?: readonly PluginTarget[];
}): Promise<PluginFile[]> {
  const { bundle, version, workDir, outDir, mtime, targets = PLUGIN_TARGETS } = options;
  const blobs = new Map<string, string>();
  const built: PluginFile[] = [];
  for (const target of targets) {
    const codeCache = target.nodePackage === hostNodePackage();
    const key = `${target.nodeVersion} ${codeCache}`;
    const blob = blobs.get(key) ?? seaBlob(bundle, target.nodeVersion, codeCache, workDir);
    blobs.set(key, blob);
    const dir = join(workDir, `${target.os}-${target.arch}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const executable = join(dir, executableName(target));
    copyFileSync(nodeBinary(target.nodePackage, target.nodeVersion, target.nodeFile), executable);
    chmodSync(executable, 0o755);
    const macOS = target.os === "darwin";
    // Node's signature could never verify once the blob is in: it goes first, and ours comes after.
    if (macOS) removeCodeSignature(executable);
    const macho = macOS ? ["--macho-segment-name", "NODE_SEA"] : [];
    try {
      execFileSync(
        process.execPath,
        [POSTJECT, executable, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...macho],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
    } catch (error) {
      const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
      throw new Error(
        `postject could not inject the plugin into Node's ${target.os}-${target.arch} binary: ${said}`,
      );
    }
    if (macOS) signAdHoc(executable, `${target.os}-${target.arch}`);
    copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
    const file = pluginTarball(version, target);
    execFileSync(
      "tar",
      [
        "--sort=name",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        `--mtime=@${mtime}`,
        // gzip -n: no name or time in the gzip header either.
        "--use-compress-program=gzip -n",
        "-cf",
        join(outDir, file),
        executableName(target),
        "LICENSE",
      ],
      { cwd: dir },
    );
    built.push({ os: target.os, arch: target.arch, file });
  }
  return built;
}
