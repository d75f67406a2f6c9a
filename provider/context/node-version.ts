/**
 * The oldest Node.js this package runs on: undici 8 (the API client's HTTP stack) needs 22.19, and fails
 * to load on older versions with an error that says nothing about versions.
 */
const MINIMUM = [22, 19] as const;

/** Whether `version` is older than the minimum. */
export function isUnsupportedNode(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1]);
}

/** The cause, worded once for every place that checks: who needs what, and what this process runs. */
export function nodeTooOld(subject: string, version: string = process.versions.node): string {
  return `${subject} needs Node.js ${MINIMUM.join(".")} or later (24 LTS recommended), but this process runs Node.js ${version} (${process.execPath}).`;
}

/**
 * Throws a one-line explanation when this process runs a Node.js older than the minimum. The runtime
 * entry calls it; it runs inside Pulumi's dynamic-provider host, so its advice is about the `node` on PATH.
 */
export function assertSupportedNode(version: string = process.versions.node): void {
  if (!isUnsupportedNode(version)) return;
  throw new Error(
    `${nodeTooOld("@service/pulumi", version)} Pulumi runs the \`node\` found first on PATH: put a newer one first (for example \`nvm use 24\`) and run the command again.`,
  );
}
