import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTING_ROWS, stackKey } from "../../provider/settings/table";
import { SETTINGS_DOC_FILE, settingsDocText, settingsTable } from "../../tools/codegen/settings-doc";

/**
 * The settings table of docs/configuration.md is generated from the settings table and checked in: this
 * fails when the two part, as test/tools/schema.test.ts does for schema.json.
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

  it("has one line per setting, with each of its names and its meaning", () => {
    const lines = settingsTable().split("\n").slice(2);
    expect(lines).toHaveLength(SETTING_ROWS.length);
    SETTING_ROWS.forEach(([, setting], i) => {
      const line = lines[i]!;
      if (setting.config) expect(line).toContain(`\`${stackKey(setting.config)}\``);
      if (setting.env) expect(line).toContain(`\`${setting.env}\``);
      if (setting.option) expect(line).toContain(`\`${setting.option.path}\``);
      expect(line).toContain(setting.description);
      expect(line.includes("(secret)")).toBe(setting.secret);
    });
  });
});
