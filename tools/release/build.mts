/**
 * `npm run release`: writes dist/release/, every artifact a release publishes, at package.json's version:
 * - the npm tarball, and its CycloneDX SBOM (sbom.mts: its runtime dependencies, from the lockfile);
 * - the Python SDK's wheel and sdist (`python -m build`);
 * - the Go SDK as a module-proxy folder, goproxy/ (`GOPROXY=file://…/goproxy`);
 * - the provider plugin as one executable per platform, which needs no Node.js, in
 *   `pulumi-resource-service-v<version>-<os>-<arch>.tar.gz`, and the SBOM of what it carries
 *   (`pulumi-resource-service-v<version>.cdx.json`: the npm packages bundled in it, and Node.js);
 * - SHA256SUMS, and MANIFEST.json (manifest.mts) listing them all.
 * It prints each artifact's size and the time taken. Node binaries and the Python build frontend are
 * kept under node_modules/.cache between runs. docs/releasing.md says what publishes them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { buildGoProxy } from "./go-proxy.mts";
import { CHECKSUMS_FILE, MANIFEST_FILE, type Manifest, ManifestSchema, sha256Of } from "./manifest.mts";
import { buildPluginBinaries } from "./plugin-binary.mts";
import { bundlePlugin } from "./plugin-bundle.mts";
import { buildPythonSdk } from "./python.mts";
import { cycloneDx, runtimePackages } from "./sbom.mts";
import { PLUGIN_TARGETS, UNBUILT_TARGETS } from "./targets.mts";
import { pluginServer, releaseVersion } from "./versions.mts";

const root = join(import.meta.dirname, "../..");
const outDir = join(root, "dist/release");
const started = performance.now();

function step(label: string): () => void {
  const start = performance.now();
  return () => process.stderr.write(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s\n`);
}

/** The time of the last commit, in seconds: every archive's timestamps, so that a rebuild is identical. */
function commitTime(): number {
  try {
    return Number(execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" }).trim());
  } catch {
    return Math.floor(Date.now() / 1000);
  }
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
const version = releaseVersion();
const mtime = commitTime();

let done = step("build (npm run build)");
// A clean build of dist/ (it keeps dist/release, which the steps below write anew).
execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
done();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), "service-pulumi-release-"));
try {
  done = step("npm tarball and SBOM");
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", outDir], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const npmFile = readdirSync(outDir).find((file) => file.endsWith(".tgz"))!;
  const sbomFile = `${npmFile.replace(/\.tgz$/, "")}.cdx.json`;
  const sbom = cycloneDx({
    name: pkg.name,
    version,
    description: "The npm package: its runtime dependencies, which npm installs beside it.",
    packages: runtimePackages(root),
  });
  writeFileSync(join(outDir, sbomFile), `${JSON.stringify(sbom, null, 2)}\n`);
  done();

  done = step("Python wheel and sdist");
  const python = buildPythonSdk(workDir, outDir, mtime);
  done();

  done = step("Go module proxy");
  const goVersion = `v${version}`;
  const go = buildGoProxy({ version: goVersion, workDir, outDir, proxyDir: "goproxy", mtime });
  done();

  done = step("plugin binaries");
  const bundle = join(workDir, "plugin.cjs");
  const packages = await bundlePlugin(bundle);
  const plugins = await buildPluginBinaries({ bundle, version, workDir, outDir, mtime });
  const pluginSbomFile = `pulumi-resource-service-v${version}.cdx.json`;
  const pluginSbom = cycloneDx({
    name: "pulumi-resource-service",
    version,
    description: "The provider plugin as one executable per platform, with its dependencies inside.",
    packages,
    nodeVersions: PLUGIN_TARGETS.map((target) => target.nodeVersion),
  });
  writeFileSync(join(outDir, pluginSbomFile), `${JSON.stringify(pluginSbom, null, 2)}\n`);
  done();

  const artifact = (file: string, kind: Manifest["artifacts"][number]["kind"], name: string) => ({
    file,
    kind,
    name,
    version,
    sha256: sha256Of(join(outDir, file)),
    bytes: statSync(join(outDir, file)).size,
  });
  const manifest = ManifestSchema.parse({
    version,
    artifacts: [
      artifact(npmFile, "npm", pkg.name),
      artifact(sbomFile, "sbom", pkg.name),
      artifact(python.wheel, "python-wheel", "service-pulumi"),
      artifact(python.sdist, "python-sdist", "service-pulumi"),
      artifact(go.zip, "go-module", go.module),
      ...plugins.map((p) => artifact(p.file, "plugin", `pulumi-resource-service-${p.os}-${p.arch}`)),
      artifact(pluginSbomFile, "sbom", "pulumi-resource-service"),
    ],
    npm: { name: pkg.name, version, file: npmFile },
    python: {
      distribution: "service-pulumi",
      import: "service_pulumi",
      version,
      wheel: python.wheel,
      sdist: python.sdist,
    },
    go: { module: go.module, version: goVersion, proxy: "goproxy", tag: `sdk/go/${goVersion}` },
    maven: {
      groupId: "io.github.service-pulumi",
      artifactId: "service",
      version,
      built: false,
      reason:
        "no Java code generator can be had here: the Go module proxy refuses github.com/pulumi/pulumi-java/pkg (403), which `pulumi package gen-sdk --language java` needs",
    },
    nuget: {
      package: "ServicePulumi.Service",
      version,
      built: false,
      reason: "no .NET SDK here: the release workflow packs sdk/dotnet with `dotnet pack`",
    },
    plugin: {
      name: "service",
      version,
      server: pluginServer(),
      files: plugins,
      unbuilt: UNBUILT_TARGETS.map(({ os, arch, reason }) => ({ os, arch, reason })),
    },
  } satisfies Manifest);
  writeFileSync(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

  const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== CHECKSUMS_FILE)
    .map((entry) => relative(outDir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
  writeFileSync(
    join(outDir, CHECKSUMS_FILE),
    files.map((file) => `${sha256Of(join(outDir, file))}  ${file}\n`).join(""),
  );

  const size = (bytes: number) =>
    bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
  for (const { file, bytes } of manifest.artifacts)
    process.stdout.write(`${size(bytes).padStart(9)}  ${file}\n`);
  for (const { os, arch, reason } of UNBUILT_TARGETS)
    process.stdout.write(`not built: the plugin for ${os}-${arch}: ${reason}\n`);
  process.stdout.write(
    `Wrote ${relative(root, outDir)} (version ${version}) in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`,
  );
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
