/**
 * The settings table of docs/configuration.md, generated from the settings table (provider/settings/
 * table.ts) between two markers, so that the docs cannot drift from what the code reads. `npm run
 * docs:settings` writes it; a unit test fails when the file differs from what this generates.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SETTING_ROWS, type Setting, stackKey } from "../../provider/settings/table";
import { markdownTable } from "./markdown-table";

/** The page that holds the table, from the package's folder. */
export const SETTINGS_DOC_FILE = "docs/configuration.md";

/** The line above the generated table. */
const TABLE_START =
  "<!-- settings table: generated from provider/settings/table.ts by `npm run docs:settings`; edit the table there -->";
/** The line below the generated table. */
const TABLE_END = "<!-- end of the settings table -->";

const code = (text: string) => `\`${text}\``;

/** One setting's cells: stack config, environment, client option, meaning, default. */
function cells(setting: Setting): string[] {
  const defaulted =
    setting.default === undefined
      ? (setting.defaultNote ?? "none")
      : `${code(String(setting.default))}${setting.defaultNote ? ` (${setting.defaultNote})` : ""}`;
  return [
    setting.config === undefined
      ? ""
      : `${code(stackKey(setting.config))}${setting.secret ? " (secret)" : ""}`,
    setting.env === undefined ? "" : code(setting.env),
    setting.option === undefined
      ? ""
      : `${code(setting.option.path)}${setting.option.scale === 1000 ? " (ms)" : ""}`,
    setting.description,
    defaulted,
  ];
}

/** The settings table in Markdown, its columns aligned. */
export function settingsTable(): string {
  return markdownTable(
    ["Stack config", "Environment", "Client option", "Meaning", "Default"],
    SETTING_ROWS.map(([, setting]) => cells(setting)),
  );
}

/** The page under `root` with its settings table as the settings table generates it. */
export function settingsDocText(root: string): string {
  const page = readFileSync(join(root, SETTINGS_DOC_FILE), "utf8");
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(
      `${SETTINGS_DOC_FILE} has lost the markers around its settings table: put back the lines "${TABLE_START}" and "${TABLE_END}" where the table goes.`,
    );
  }
  return `${page.slice(0, start + TABLE_START.length)}\n\n${settingsTable()}\n\n${page.slice(end)}`;
}
