import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { isUnsupportedNode } from "../../provider/context/node-version";

/** A `node` older than the package's minimum, when this machine has one (the system's, often). */
export const OLD_NODE = ["/usr/bin/node", "/usr/local/bin/node"].find(
  (path) =>
    existsSync(path) &&
    isUnsupportedNode(execFileSync(path, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()),
);

/** Says, once per file that asks, which tests this machine cannot run. */
export function warnWithoutOldNode(): void {
  if (!OLD_NODE)
    console.warn("SKIPPED: no Node.js older than 22.19 on this machine to run the old-Node tests with.");
}
