import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ARCHITECTURE_PAGE,
  currentPage,
  drawImports,
  readSources,
  roomOf,
} from "../../tools/codegen/architecture";

/**
 * docs/architecture.md's picture is drawn from the imports, and its words name folders and files: these
 * fail when the code moves and the page does not follow, and when the floors the page promises no
 * longer hold.
 */
const root = join(__dirname, "../..");
const page = readFileSync(join(root, ARCHITECTURE_PAGE), "utf8");
const graph = readSources(root);

/** Every tracked file, and every folder that holds one, as repository-relative paths. */
const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter(Boolean);
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => `${parts.slice(0, i + 1).join("/")}/`),
  ),
);

describe("docs/architecture.md", () => {
  it("shows the floors as the imports draw them today", () => {
    if (page !== currentPage(root)) {
      throw new Error(
        `${ARCHITECTURE_PAGE}'s picture differs from the imports: run \`npm run architecture\`.`,
      );
    }
  });

  it("names only folders and files that exist", () => {
    // A path in backticks: a folder (`provider/client/`, or `areas/` inside the one the sentence is about)
    // or a file (`routes.ts`); build output (dist/) is not in the tree.
    const named = [...page.matchAll(/`([\w.-]+(?:\/[\w.-]+)*(?:\/|\.(?:ts|mts|cjs|js|md|json)))`/g)]
      .map((m) => m[1]!)
      .filter((path) => !path.startsWith("dist/"));
    expect(named.length).toBeGreaterThan(30);
    const exists = (path: string) =>
      path.endsWith("/")
        ? [...folders].some((folder) => folder === path || folder.endsWith(`/${path}`))
        : tracked.some((file) => file === path || file.endsWith(`/${path}`));
    expect(named.filter((path) => !exists(path))).toEqual([]);
  });
});

describe("the floors", () => {
  it("keep the contract on the ground floor: it imports nothing of the repository's other folders", () => {
    const upward = graph.imports.filter(
      ([from, to]) => roomOf(from) === "contract" && roomOf(to) !== "contract",
    );
    expect(upward).toEqual([]);
  });

  it("let the sandbox take from provider/ only what a user of the package imports", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string }>;
    };
    const entryPoints = new Set(
      Object.values(manifest.exports).flatMap((entry) =>
        typeof entry === "string" ? [] : [entry.types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts")],
      ),
    );
    const intoProvider = graph.imports.filter(
      ([from, to]) => from.startsWith("sandbox/") && to.startsWith("provider/"),
    );
    expect(intoProvider.length).toBeGreaterThan(0);
    expect(intoProvider.filter(([, to]) => !entryPoints.has(to))).toEqual([]);
  });

  it("hold no circle of files: no file imports one that imports it back, however far round", () => {
    const into = new Map<string, string[]>(graph.files.map((file) => [file, []]));
    for (const [from, to] of graph.imports) into.get(from)!.push(to);
    const done = new Set<string>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        circles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      if (done.has(file)) return;
      for (const next of into.get(file)!) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of graph.files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it("import each other in one direction only: no folder imports one that imports it", () => {
    const picture = drawImports(graph);
    for (const [from, to] of picture.arrows) {
      expect(picture.rooms.get(from)!.floor, `${from} → ${to}`).toBeGreaterThan(picture.rooms.get(to)!.floor);
    }
  });
});

describe("the tests", () => {
  const tests = tracked.filter((file) => file.startsWith("test/") && file.endsWith(".test.ts"));
  /** Whether test/<path>/<name>.test.ts has a tracked <path>/<name>, with or without an extension. */
  const mirrorsAFile = (test: string) => {
    const source = test.slice("test/".length, -".test.ts".length);
    return tracked.some((file) => file === source || file.startsWith(`${source}.`));
  };

  it("mirror the source: each folder of unit tests is a folder of the repository", () => {
    const apart = /^test\/(e2e|helpers|setup)\//;
    const unmirrored = tests
      .filter((file) => !apart.test(file) && file.split("/").length > 2)
      .map((file) => file.slice("test/".length, file.lastIndexOf("/") + 1))
      .filter((folder) => !folders.has(folder));
    expect(tests.length).toBeGreaterThan(50);
    expect([...new Set(unmirrored)]).toEqual([]);
  });

  it("follow one naming rule: <subject>.test.ts, in lower-case words joined by hyphens, or the name of the file they test", () => {
    const misnamed = tests.filter((file) => {
      const name = file.split("/").pop()!;
      return !/^[a-z0-9]+(-[a-z0-9]+)*\.test\.ts$/.test(name) && !mirrorsAFile(file);
    });
    expect(misnamed).toEqual([]);
  });

  it("live in folders, but for the tests of the repository's top-level files (README.md, package.json)", () => {
    expect(tests.filter((file) => file.split("/").length === 2 && !mirrorsAFile(file))).toEqual([]);
  });
});
