import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * tools/README.md gives each tool a line: the files it names exist, every file of tools/ is named, and
 * every npm script that runs a tool is named, so that the page can't drift from the folder.
 */
const root = join(__dirname, "../..");
const tools = join(root, "tools");
const readme = readFileSync(join(tools, "README.md"), "utf8");

/** The README's `## <folder>/` sections, each with the names it quotes (a file, or `hosts/` for a folder). */
function sections(): Map<string, string[]> {
  const named = new Map<string, string[]>();
  let folder: string | undefined;
  for (const line of readme.split("\n")) {
    const heading = /^## (\S+)\/$/.exec(line);
    if (heading) folder = heading[1]!;
    else if (folder && line.startsWith("- ")) {
      const names = [...line.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!).filter((n) => /\.|\/$/.test(n));
      named.set(folder, [...(named.get(folder) ?? []), ...names]);
    }
  }
  return named;
}

describe("tools/README.md", () => {
  it("has a section for every folder of tools/", () => {
    const folders = readdirSync(tools, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...sections().keys()].sort()).toEqual(folders.sort());
  });

  it("names every file of each folder, and only files that exist", () => {
    for (const [folder, names] of sections()) {
      for (const name of names) expect(existsSync(join(tools, folder, name)), `${folder}/${name}`).toBe(true);
      const entries = readdirSync(join(tools, folder), { withFileTypes: true })
        .filter((entry) => !entry.name.startsWith("."))
        .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
      for (const entry of entries) expect(names, `${folder}/${entry}`).toContain(entry);
    }
  });

  it("names every npm script that runs a tool", () => {
    const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<
      string,
      string
    >;
    const runTools = Object.entries(scripts).filter(([, command]) => /(^|[\s/])tools\//.test(command));
    expect(runTools.length).toBeGreaterThan(10);
    for (const [name] of runTools) expect(readme, name).toContain(`\`npm run ${name}\``);
  });
});
