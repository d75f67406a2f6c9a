/**
 * The oldest Node.js this package runs on: undici 8 (the API client's HTTP stack) needs 22.19, and fails
 * to load on older versions with an error that says nothing about versions.
 */
const MINIMUM = [22, 19] as const;

/** Throws a one-line explanation when this process runs a Node.js older than the minimum. */
export function assertSupportedNode(version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1])) return;
  throw new Error(
    `@service/pulumi needs Node.js ${MINIMUM.join(".")} or later (24 LTS recommended), but this process runs Node.js ${version} (${process.execPath}). Pulumi runs the \`node\` found first on PATH: put a newer one first (for example \`nvm use 24\`) and run the command again.`,
  );
}
