/**
 * Where `npm run engine` keeps the Pulumi engine it builds, and how the end-to-end tests find it: one
 * definition, so that the two never disagree.
 *
 * The folder is keyed by the release pinned in engine/go.mod and by a hash of engine/go.mod and
 * engine/go.sum, so that a change of pin builds anew and an unchanged pin is found again. It lives outside
 * the work tree (a fresh clone on the same machine reuses it), under $SERVICE_ENGINE_CACHE, else
 * $XDG_CACHE_HOME/service-pulumi/engine, else ~/.cache/service-pulumi/engine.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const engineModuleDir = join(import.meta.dirname, "../engine");

/** The Pulumi release that engine/go.mod pins (`v3.259.0`). */
export function pinnedPulumiVersion(): string {
  const goMod = readFileSync(join(engineModuleDir, "go.mod"), "utf8");
  const pinned = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(goMod)?.[1];
  if (!pinned) throw new Error("engine/go.mod requires no github.com/pulumi/pulumi/pkg/v3: pin a release there.");
  return pinned;
}

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
