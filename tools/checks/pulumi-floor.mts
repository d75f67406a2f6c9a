/**
 * `npm run test:pulumi-floor [-- <version>...] [-- --outside-range]`: installs the packed package next to
 * the lowest @pulumi/pulumi that package.json's peer range allows and next to the newest published one
 * (npm's `latest` tag, resolved from the registry on each run and printed), or next to the versions given
 * (`latest` among them is resolved the same way), and runs test/tools/checks/pulumi-floor.test.ts against
 * each: type-check, closure serialization under setMocks, and the Webhook and Domain lifecycles through
 * that version's own dynamic-provider host.
 *
 * The floor is 3.216.0, the first version whose dynamic-provider host passes the inputs that `read`
 * returns back to the engine; with 3.215.0 `pulumi refresh` would lose them and diff spuriously
 * afterwards, and the test fails on it. To see that, run with `3.215.0 --outside-range`, which
 * installs a version below the peer range (npm's --legacy-peer-deps).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const root = join(import.meta.dirname, "../..");
const { values, positionals } = parseArgs({
  options: { "outside-range": { type: "boolean", default: false } },
  allowPositionals: true,
});
const range: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).peerDependencies[
  "@pulumi/pulumi"
];
const floor = /\d+\.\d+\.\d+/.exec(range)?.[0];
if (!floor) throw new Error(`package.json peerDependencies["@pulumi/pulumi"] = "${range}" names no version`);
const asked = positionals.length > 0 ? positionals : [floor, "latest"];
// The version npm's `latest` tag names now, as the registry answers: asked once, and printed.
const latest = asked.includes("latest")
  ? execFileSync("npm", ["view", "@pulumi/pulumi@latest", "version"], { encoding: "utf8" }).trim()
  : undefined;
const versions = [...new Set(asked.map((version) => (version === "latest" ? latest! : version)))];
/** A version as printed: with what it stands for, where it is the floor or npm's `latest`. */
const described = (version: string) => {
  const roles = [version === floor && "the floor", version === latest && "latest"].filter(Boolean);
  return roles.length > 0 ? `${version} (${roles.join(", ")})` : version;
};
process.stdout.write(`peer range ${range}; testing @pulumi/pulumi ${versions.map(described).join(", ")}\n`);

const vitest = join(root, "node_modules/vitest/vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", "test/tools/checks/pulumi-floor.test.ts"], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    SERVICE_PULUMI_VERSIONS: versions.join(","),
    SERVICE_PULUMI_OUTSIDE_RANGE: values["outside-range"] ? "1" : "",
  },
});
process.exitCode = run.status ?? 1;
