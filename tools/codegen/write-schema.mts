/**
 * `npm run schema`: writes schema.json, the provider plugin's Pulumi package schema, from the registry
 * (schema.ts). Run it after changing a resource's inputs, outputs, secrets or TSDoc; a unit test
 * (test/schema.json.test.ts) fails until the file matches. `--check` only compares, and exits 1 on a difference.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "../build/build.mts";

const root = join(import.meta.dirname, "../..");
// The generator reads the registry's TypeScript, so it runs from the compiled tree.
build();
const { SCHEMA_FILE, schemaText } = createRequire(import.meta.url)(
  join(root, "dist/tools/codegen/schema.js"),
) as typeof import("./schema.ts");

const file = join(root, SCHEMA_FILE);
const text = schemaText(root);
if (process.argv.includes("--check")) {
  if (readFileSync(file, "utf8") !== text) {
    process.stderr.write(
      `${SCHEMA_FILE} differs from what the registry generates: run \`npm run schema\`.\n`,
    );
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
  process.stdout.write(`Wrote ${SCHEMA_FILE}.\n`);
}
