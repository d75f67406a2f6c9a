/**
 * `npm run architecture`: writes the picture of docs/architecture.md from the imports (architecture.ts).
 * Run it after moving a folder or adding an import between folders; a unit test
 * (test/docs/architecture.test.ts) fails until the page matches. `--check` only compares, and exits 1 on
 * a difference.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "../build/build.mts";

const root = join(import.meta.dirname, "../..");
// The generator is TypeScript of the package's module kind, so it runs from the compiled tree.
build();
const { ARCHITECTURE_PAGE, currentPage } = createRequire(import.meta.url)(
  join(root, "dist/tools/codegen/architecture.js"),
) as typeof import("./architecture.ts");

const file = join(root, ARCHITECTURE_PAGE);
const page = currentPage(root);
if (process.argv.includes("--check")) {
  if (readFileSync(file, "utf8") !== page) {
    process.stderr.write(
      `${ARCHITECTURE_PAGE}'s picture differs from the imports: run \`npm run architecture\`.\n`,
    );
    process.exit(1);
  }
} else {
  writeFileSync(file, page);
  process.stdout.write(`Wrote the picture of ${ARCHITECTURE_PAGE}.\n`);
}
