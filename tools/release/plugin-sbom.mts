/**
 * The plugin binary's CycloneDX SBOM: what the executable carries, since it must carry its own
 * dependencies where the npm package requires them from the user's node_modules. The packages its bundle
 * holds (each at the version installed when it was bundled) and the Node.js it is made of.
 */
import { readFileSync } from "node:fs";
import { join, sep } from "node:path";

/** One npm package inside the plugin's bundle. */
export interface BundledPackage {
  readonly name: string;
  readonly version: string;
  /** Its package.json `license`, an SPDX expression; absent when it states none. */
  readonly license?: string;
}

/**
 * The packages the bundle's modules come from, by the folder under the last `node_modules` of each path,
 * read from that folder's package.json; sorted by name.
 */
export function bundledPackages(moduleIds: readonly string[]): BundledPackage[] {
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
  const packages = new Map<string, BundledPackage>();
  for (const folder of folders) {
    const { name, version, license } = JSON.parse(
      readFileSync(join(folder, "package.json"), "utf8"),
    ) as BundledPackage;
    packages.set(`${name}@${version}`, {
      name,
      version,
      ...(typeof license === "string" ? { license } : {}),
    });
  }
  return [...packages.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

/** A package URL for an npm package (`pkg:npm/%40pulumi/pulumi@3.270.0`). */
const npmPurl = ({ name, version }: BundledPackage) => `pkg:npm/${name.replace(/^@/, "%40")}@${version}`;

/** The SBOM of the plugin binary at `version`, made of Node.js `nodeVersions` and `packages`. */
export function pluginSbom(options: {
  readonly version: string;
  readonly packages: readonly BundledPackage[];
  readonly nodeVersions: readonly string[];
}): object {
  const root = `pulumi-resource-service@${options.version}`;
  const components = [
    ...[...new Set(options.nodeVersions)].map((version) => ({
      type: "platform",
      "bom-ref": `pkg:generic/node@${version}`,
      name: "node",
      version,
      description: "the Node.js runtime the single executable is made of",
      licenses: [{ expression: "MIT" }],
      purl: `pkg:generic/node@${version}`,
    })),
    ...options.packages.map((p) => ({
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
        name: "pulumi-resource-service",
        version: options.version,
        description:
          "The Service provider plugin as one executable per platform, with its dependencies inside.",
      },
    },
    components,
    dependencies: [{ ref: root, dependsOn: components.map((c) => c["bom-ref"]) }],
  };
}
