import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** What `npm pack` puts in the tarball, read without writing one. */
function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: root,
    encoding: "utf8",
  });
  return (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
}

describe("the package manifest", () => {
  it("gives node10 resolution (typesVersions) the same declarations as exports, for every subpath", () => {
    // Pulumi's TypeScript template still resolves modules as node10, which ignores `exports`.
    const fromExports: Record<string, string> = {};
    for (const [subpath, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
      if (subpath === "." || typeof target !== "object" || target === null) continue;
      fromExports[subpath.slice(2)] = (target as { types: string }).types;
    }
    const fromTypesVersions = Object.fromEntries(
      Object.entries(manifest.typesVersions["*"] as Record<string, string[]>).map(([k, v]) => [k, v[0]]),
    );
    expect(fromTypesVersions).toEqual(fromExports);
    expect(manifest.types).toBe(`${manifest.exports["."].types.slice(2)}`);
  });

  it("names its repository, homepage, issue tracker and keywords", () => {
    expect(manifest.repository.url).toMatch(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs.url).toMatch(/\/issues$/);
    expect(manifest.keywords).toContain("pulumi");
  });
});

describe("the packed tarball", () => {
  const files = packedFiles();

  it("carries the Apache-2.0 LICENSE that package.json declares, and the README", () => {
    expect(manifest.license).toBe("Apache-2.0");
    expect(files).toContain("LICENSE");
    expect(files).toContain("README.md");
    const license = readFileSync(join(root, "LICENSE"), "utf8");
    expect(license).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
    expect(license).not.toContain("[yyyy]");
  });

  it("ships only source maps whose sources are shipped too or embedded (sourcesContent)", () => {
    const maps = files.filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(10);
    const unresolved: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(root, map), "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      sources.forEach((source, i) => {
        const shipped = files.includes(join(map, "..", source));
        if (!shipped && typeof sourcesContent?.[i] !== "string") unresolved.push(`${map} -> ${source}`);
      });
    }
    expect(unresolved).toEqual([]);
  });
});
