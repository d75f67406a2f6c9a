/**
 * One version for every artifact: package.json's. The schema and each generated SDK carry it too (and
 * the plugin's download server); a release refuses to build when any of them says otherwise, naming the
 * file and the command that brings it in line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const repository = join(import.meta.dirname, "../..");
const reader = (root: string) => (file: string) => readFileSync(join(root, file), "utf8");

/** Each SDK's pulumi-plugin.json, which names the plugin, its version and its server. */
const PLUGIN_FILES = [
  "sdk/python/service_pulumi/pulumi-plugin.json",
  "sdk/go/service/pulumi-plugin.json",
  "sdk/dotnet/pulumi-plugin.json",
] as const;

/** Every place under `root` that states the version, and what each states. */
function statedVersions(root: string): [file: string, version: string | undefined][] {
  const read = reader(root);
  return [
    ["schema.json", (JSON.parse(read("schema.json")) as { version?: string }).version],
    [
      "sdk/python/pyproject.toml",
      /^\s*version\s*=\s*"([^"]+)"/m.exec(read("sdk/python/pyproject.toml"))?.[1],
    ],
    ["sdk/dotnet/version.txt", read("sdk/dotnet/version.txt").trim()],
    ...PLUGIN_FILES.map(
      (file) =>
        [file, (JSON.parse(read(file)) as { version?: string }).version] as [string, string | undefined],
    ),
  ];
}

/** package.json's version, once every other place agrees with it (`root`: the repository's). */
export function releaseVersion(root = repository): string {
  const { version } = JSON.parse(reader(root)("package.json")) as { version: string };
  const differing = statedVersions(root).filter(([, stated]) => stated !== version);
  if (differing.length > 0)
    throw new Error(
      `package.json's version is ${version}, but ${differing.map(([file, stated]) => `${file} says ${stated ?? "none"}`).join(", ")}: ` +
        "run `npm run schema` and `npm run sdk`, then commit what they change.",
    );
  return version;
}

/** The server the schema names for the plugin's downloads, once every SDK names the same. */
export function pluginServer(root = repository): string {
  const read = reader(root);
  const server = (JSON.parse(read("schema.json")) as { pluginDownloadURL?: string }).pluginDownloadURL;
  if (!server) throw new Error("schema.json names no pluginDownloadURL: run `npm run schema`.");
  const differing = PLUGIN_FILES.filter(
    (file) => (JSON.parse(read(file)) as { server?: string }).server !== server,
  );
  if (differing.length > 0)
    throw new Error(
      `${differing.join(" and ")} ${differing.length > 1 ? "name" : "names"} another plugin server than schema.json: run \`npm run sdk\`.`,
    );
  return server;
}
