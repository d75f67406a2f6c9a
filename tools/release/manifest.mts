/**
 * MANIFEST.json of a release, dist/release/MANIFEST.json: every artifact with its file, name, version and
 * checksum, and per registry the name a user installs by. The schema below is the one definition of it:
 * `npm run release` writes it through the schema, and the release tests and anything else read it back
 * through `readManifest`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const version = z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "a semantic version, no leading v");
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 as 64 lowercase hex digits");
/** A file of the release folder, by its path relative to it. */
const file = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith("/") && !path.split("/").includes(".."), "a path inside the release");

/** One file of the release with its checksum and size. */
const artifact = z.strictObject({
  file,
  /** What it is: the npm tarball, a Python wheel or sdist, a Go module zip, a plugin tarball, the SBOM. */
  kind: z.enum(["npm", "python-wheel", "python-sdist", "go-module", "plugin", "sbom"]),
  /** The name it is installed or published by (the npm name, the Python distribution, the Go module…). */
  name: z.string().min(1),
  version,
  sha256,
  bytes: z.number().int().positive(),
});

/** What a release holds, and what it leaves out. */
export const ManifestSchema = z.strictObject({
  /** The version of every artifact: package.json's. */
  version,
  artifacts: z.array(artifact).min(1),
  npm: z.strictObject({ name: z.string(), version, file }),
  python: z.strictObject({
    /** The distribution `pip install` names. */
    distribution: z.string(),
    /** The module a program imports. */
    import: z.string(),
    version,
    wheel: file,
    sdist: file,
  }),
  go: z.strictObject({
    module: z.string(),
    /** The version tag, with its `v`. */
    version: z.string().regex(/^v\d+\.\d+\.\d+/),
    /** The module-proxy folder to point GOPROXY at (`file://<release>/<proxy>`). */
    proxy: file,
    /** The tag a release pushes for the module (it lives in a folder of the repository). */
    tag: z.string(),
  }),
  /** The Maven coordinates a release publishes, and whether this build made the SDK (and why not). */
  maven: z.strictObject({
    groupId: z.string(),
    artifactId: z.string(),
    version,
    built: z.boolean(),
    reason: z.string().optional(),
  }),
  /** The NuGet package a release publishes: built by the release workflow, never here. */
  nuget: z.strictObject({ package: z.string(), version, built: z.boolean(), reason: z.string().optional() }),
  plugin: z.strictObject({
    /** The resource plugin's name, as `pulumi plugin install resource <name>` takes it. */
    name: z.string(),
    version,
    /** Where the SDKs say the engine downloads it from (their pulumi-plugin.json `server`). */
    server: z.string(),
    files: z.array(z.strictObject({ os: z.string(), arch: z.string(), file })).min(1),
    unbuilt: z.array(z.strictObject({ os: z.string(), arch: z.string(), reason: z.string() })),
  }),
});

/** A release's MANIFEST.json. */
export type Manifest = z.infer<typeof ManifestSchema>;

/** The name of the manifest in a release folder. */
export const MANIFEST_FILE = "MANIFEST.json";
/** The name of the checksum list in a release folder, in `sha256sum` form. */
export const CHECKSUMS_FILE = "SHA256SUMS";

/** The SHA-256 of a file, in hex. */
export function sha256Of(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Reads and checks `MANIFEST.json` of the release folder `dir`; a mismatch names the field at fault. */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE);
  const parsed = ManifestSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success)
    throw new Error(
      `${path} is not a release manifest: ${z.prettifyError(parsed.error)}. Run \`npm run release\` to write it anew.`,
    );
  return parsed.data;
}
