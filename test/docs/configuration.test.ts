import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { SETTINGS_DOC_FILE, settingsDocText } from "../../tools/codegen/settings-doc";

/**
 * The settings table of docs/configuration.md is generated from the settings table and checked in: this
 * fails when the two part, as test/schema.json.test.ts does for schema.json.
 */
const root = join(__dirname, "../..");

describe("the docs' settings table", () => {
  it("is checked in as the settings table generates it", () => {
    if (readFileSync(join(root, SETTINGS_DOC_FILE), "utf8") !== settingsDocText(root)) {
      throw new Error(
        `${SETTINGS_DOC_FILE}'s settings table differs from provider/settings/table.ts: run \`npm run docs:settings\`.`,
      );
    }
  });
});
