/**
 * The release's CycloneDX SBOMs, each listing exactly what its artifact ships, with versions and licences:
 * - the npm package's: its runtime dependencies (package.json `dependencies`) and theirs, as the lockfile
 *   resolves them; no development tool, and no peer (the user installs @pulumi/pulumi);
 * - the plugin binary's: the npm packages its bundle holds, at the version bundled (the executable must
 *   carry its own, where the npm package requires them from the user's node_modules), and the Node.js it
 *   is made of.
 */
import { readFileSync } from "node:fs";
import { join, sep } from "node:path";

/** One npm package an artifact ships. */
export interface ShippedPackage {
  readonly name: string;
  readonly version: string;
  /** Its package.json `license`, an SPDX expression; absent when it states none. */
  readonly license?: string;
}

const byName = (a: ShippedPackage, b: ShippedPackage) =>
  a.name.localeCompare(b.name) || a.version.localeCompare(b.version);

/** `license` when it is a string (a few old packages give an object). */
const licenseOf = (license: unknown) => (typeof license === "string" ? { license } : {});

/**
 * The packages a bundle's modules come from, by the folder under the last `node_modules` of each path,
 * read from that folder's package.json; sorted by name.
 */
export function bundledPackages(moduleIds: readonly string[]): ShippedPackage[] {
  const folders = new Set<string>();
  const marker = `${sep}node_modules${sep}`;
  for (const id of moduleIds) {
    const at = id.lastIndexOf(marker);
    if (at < 0) continue;
    const [first, second] = id.slice(at + marker.length).split(sep);
    folders.add(
      id.slice(0, at + marker.length) + (first!.startsWith("@") ? `${first}${sep}${second}` : first),
    );
  }
  const packages = new Map<string, ShippedPackage>();
  for (const folder of folders) {
    const { name, version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
    packages.set(`${name}@${version}`, { name, version, ...licenseOf(license) });
  }
  return [...packages.values()].sort(byName);
}

/** A package of package-lock.json's `packages`, by its path (`node_modules/undici`). */
interface LockedPackage {
  readonly version?: string;
  readonly license?: unknown;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

/**
 * The runtime dependencies of the package at `root` and theirs, as its package-lock.json resolves them
 * (Node's lookup: the dependent's own node_modules, then each parent's); sorted by name.
 */
export function runtimePackages(root: string): ShippedPackage[] {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
    packages: Readonly<Record<string, LockedPackage>>;
  };
  const found = new Map<string, ShippedPackage>();
  const visit = (from: string, name: string, optional: boolean) => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/node_modules")))) {
      const path = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      const entry = lock.packages[path];
      if (entry) {
        if (found.has(path)) return;
        found.set(path, { name, version: entry.version ?? "", ...licenseOf(entry.license) });
        for (const dependency of Object.keys(entry.dependencies ?? {})) visit(path, dependency, false);
        for (const dependency of Object.keys(entry.optionalDependencies ?? {})) visit(path, dependency, true);
        return;
      }
      // An optional dependency the lockfile leaves out is one npm installs on no platform.
      if (!dir && optional) return;
      if (!dir)
        throw new Error(
          `package-lock.json resolves no ${name} for ${from || "the package"}: run npm install`,
        );
    }
  };
  const own = lock.packages[""]!;
  for (const name of Object.keys(own.dependencies ?? {})) visit("", name, false);
  for (const name of Object.keys(own.optionalDependencies ?? {})) visit("", name, true);
  return [...found.values()].sort(byName);
}

/** A package URL for an npm package (`pkg:npm/%40pulumi/pulumi@3.270.0`). */
const npmPurl = ({ name, version }: ShippedPackage) => `pkg:npm/${name.replace(/^@/, "%40")}@${version}`;

/** An artifact's SBOM: what it is, the npm packages it ships, and the Node.js versions it is made of. */
export function cycloneDx(artifact: {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly packages: readonly ShippedPackage[];
  readonly nodeVersions?: readonly string[];
}): object {
  const root = `${artifact.name}@${artifact.version}`;
  const components = [
    ...[...new Set(artifact.nodeVersions)].map((version) => ({
      type: "platform",
      "bom-ref": `pkg:generic/node@${version}`,
      name: "node",
      version,
      description: "the Node.js runtime the single executable is made of",
      licenses: [{ expression: "MIT" }],
      purl: `pkg:generic/node@${version}`,
    })),
    ...artifact.packages.map((p) => ({
      type: "library",
      "bom-ref": npmPurl(p),
      name: p.name,
      version: p.version,
      purl: npmPurl(p),
      ...(p.license ? { licenses: [{ expression: p.license }] } : {}),
    })),
  ];
  return {
    bomFormat: "CycloneDX",
    specVersion: "1.5",
    version: 1,
    metadata: {
      component: {
        type: "application",
        "bom-ref": root,
        name: artifact.name,
        version: artifact.version,
        description: artifact.description,
      },
    },
    components,
    dependencies: [{ ref: root, dependsOn: components.map((c) => c["bom-ref"]) }],
  };
}
