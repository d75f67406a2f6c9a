/**
 * One version for every artifact (tools/release/versions.mts): `npm run release` builds only when the
 * schema and every SDK state package.json's version and the schema's plugin server, and otherwise names
 * each file that differs and the commands that bring it in line.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pluginServer, releaseVersion } from "../../../tools/release/versions.mts";

const root = join(__dirname, "../../..");
/** The files versions.mts reads, copied from this repository into a scratch folder per test. */
const FILES = [
  "package.json",
  "schema.json",
  "sdk/python/pyproject.toml",
  "sdk/dotnet/version.txt",
  "sdk/python/service_pulumi/pulumi-plugin.json",
  "sdk/go/service/pulumi-plugin.json",
  "sdk/dotnet/pulumi-plugin.json",
];

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function copyOfRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), "release-versions-"));
  scratch.push(dir);
  for (const file of FILES) cpSync(join(root, file), join(dir, file));
  return dir;
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), "utf8")));
}

describe("the release's one version", () => {
  it("is package.json's, which the schema and every SDK of this repository state", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(releaseVersion()).toBe(version);
    expect(pluginServer()).toBe("github://api.github.com/service-pulumi/service-pulumi");
  });

  it("is refused when an SDK states another, naming each file and what it says", () => {
    const dir = copyOfRepository();
    edit(dir, "package.json", (text) => text.replace(/"version": "[^"]+"/, '"version": "0.2.0"'));
    edit(dir, "sdk/go/service/pulumi-plugin.json", (text) =>
      text.replace(/"version": "[^"]+"/, '"version": "0.2.0"'),
    );
    expect(() => releaseVersion(dir)).toThrow(
      /package\.json's version is 0\.2\.0, but schema\.json says 0\.1\.0, .*sdk\/python\/pyproject\.toml says 0\.1\.0.*: run `npm run schema` and `npm run sdk`/,
    );
    expect(() => releaseVersion(dir)).not.toThrow(/sdk\/go\/service\/pulumi-plugin\.json/);
  });

  it("is refused with a plugin server that an SDK does not name", () => {
    const dir = copyOfRepository();
    edit(dir, "sdk/dotnet/pulumi-plugin.json", (text) =>
      text.replace(/"server": "[^"]+"/, '"server": "https://elsewhere.invalid"'),
    );
    expect(() => pluginServer(dir)).toThrow(
      "sdk/dotnet/pulumi-plugin.json names another plugin server than schema.json: run `npm run sdk`.",
    );
  });
});
