/**
 * Where `npm run engine` keeps the Pulumi engine it builds, how the end-to-end tests and the engine bench
 * find it, and the hermetic environment they run it in: one definition, so that they never disagree.
 *
 * The folder is keyed by the release pinned in go.mod (beside this file) and by a hash of go.mod's and
 * go.sum's contents, so that a change of pin builds anew and an unchanged pin is found again, wherever the
 * module's folder sits in the repository. It lives outside the work tree (a fresh clone on the same machine
 * reuses it), under $SERVICE_ENGINE_CACHE, else $XDG_CACHE_HOME/service-pulumi/engine, else
 * ~/.cache/service-pulumi/engine.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";

export const engineModuleDir = import.meta.dirname;
/** The module of the language hosts other than Node.js' (a module of its own: see hosts/go.mod). */
export const hostsModuleDir = join(engineModuleDir, "hosts");

/**
 * A fingerprint of everything the language hosts are built from: each file of hosts/ by its path there
 * and its content. The engine folder keeps the one it was built from, so a change of source rebuilds them.
 */
export function languageHostSources(): string {
  const hash = createHash("sha256");
  const files = readdirSync(hostsModuleDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(`${relative(hostsModuleDir, file)}\0`).update(readFileSync(file));
  return hash.digest("hex");
}

/** The Pulumi release that tools/engine/go.mod pins (`v3.274.1`). */
export function pinnedPulumiVersion(): string {
  const goMod = readFileSync(join(engineModuleDir, "go.mod"), "utf8");
  const pinned = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(goMod)?.[1];
  if (!pinned)
    throw new Error("tools/engine/go.mod requires no github.com/pulumi/pulumi/pkg/v3: pin a release there.");
  return pinned;
}

/**
 * The Python `pulumi` SDK installed beside the pinned engine (`pip install pulumi==<this>`) by the tests, the
 * release check and examples/python/requirements.txt: the engine's own release where PyPI serves it, else
 * the newest PyPI serves below it. PyPI's newest is 3.272.0, older than the engine's v3.274.1.
 */
export const PYTHON_PULUMI_VERSION = "3.272.0";

export function engineCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SERVICE_ENGINE_CACHE) return env.SERVICE_ENGINE_CACHE;
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cacheHome, "service-pulumi", "engine");
}

/** The folder that holds `pulumi` and its plugins for the pinned release. */
export function engineBinDir(env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum"]) hash.update(readFileSync(join(engineModuleDir, file)));
  return join(engineCacheRoot(env), `${pinnedPulumiVersion()}-${hash.digest("hex").slice(0, 12)}`);
}

/** The built `pulumi`, if `npm run engine` has built it for the pinned release. */
export function builtPulumi(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const pulumi = join(engineBinDir(env), "pulumi");
  return existsSync(pulumi) ? pulumi : undefined;
}

/**
 * The environment of a hermetic `pulumi` run: its own PULUMI_HOME and file backend, a passphrase, no update
 * check, no plugin download, and none of the caller's PULUMI_* variables, so that a user's login, access
 * token or backend is never read nor touched. The CLI's folder (where its plugins sit) comes first on
 * PATH, then this repository's Node 24.
 */
export function hermeticEnvironment(cli: string, home: string, backend: string): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !key.startsWith("PULUMI_"));
  return {
    ...Object.fromEntries(inherited),
    PATH: [dirname(cli), join(import.meta.dirname, "../../node_modules/.bin"), process.env.PATH].join(
      delimiter,
    ),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}
