import { describe, expect, it } from "vitest";
import { SETTING_ROWS, stackKey } from "../../../provider/settings/table";
import { settingsTable } from "../../../tools/codegen/settings-doc";

describe("the docs' settings table", () => {
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
