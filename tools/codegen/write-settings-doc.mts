/**
 * `npm run docs:settings`: writes the settings table of docs/configuration.md from the settings table
 * (provider/settings/table.ts, through settings-doc.ts). Run it after changing a setting; a unit
 * test (test/docs/configuration.test.ts) fails until the page matches. `--check` only compares, and exits 1
 * on a difference.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "../build/build.mts";

const root = join(import.meta.dirname, "../..");
// The generator reads the settings table's TypeScript, so it runs from the compiled tree.
build();
const { SETTINGS_DOC_FILE, settingsDocText } = createRequire(import.meta.url)(
  join(root, "dist/tools/codegen/settings-doc.js"),
) as typeof import("./settings-doc.ts");

const file = join(root, SETTINGS_DOC_FILE);
const text = settingsDocText(root);
if (process.argv.includes("--check")) {
  if (readFileSync(file, "utf8") !== text) {
    process.stderr.write(
      `${SETTINGS_DOC_FILE}'s settings table differs from provider/settings/table.ts: run \`npm run docs:settings\`.\n`,
    );
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
  process.stdout.write(`Wrote the settings table of ${SETTINGS_DOC_FILE}.\n`);
}
