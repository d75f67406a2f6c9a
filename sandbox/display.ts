import type { Language } from "../contract/languages";
import { ID_DISPLAYS, type Localized } from "./catalog";

/**
 * Display strings follow Accept-Language (spec 2.1). Every `display` (and `*_display`) member of an
 * answer is chosen here, at the last step of rendering, so stored data stays language-free.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * A timestamp's display: a date-time with fractional seconds and a UTC marker in both languages, ISO 8601
 * in English (`2026-01-01T09:30:00.250Z`) and the Japanese date order with slashes in Japanese
 * (`2026/01/01 09:30:00.250 UTC`).
 */
function timestampDisplay(ms: number, language: Language): string {
  const d = new Date(ms);
  if (language === "en") return d.toISOString();
  const date = `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date} ${time}.${pad(d.getUTCMilliseconds(), 3)} UTC`;
}

/** The timestamp object of spec 2.1 for a sandbox time in milliseconds. */
export function timestamp(ms: number, language: Language): { display: string; epoch: number } {
  return { display: timestampDisplay(ms, language), epoch: ms / 1000 };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isLocalized(value: unknown): value is Localized {
  return isRecord(value) && typeof value.en === "string" && typeof value.ja === "string";
}

const isDisplayKey = (key: string) => key === "display" || key.endsWith("_display");

/**
 * `value` with every display string in `language`. In order of precedence: a stored `{en, ja}` pair,
 * the catalog's string for a known `id` beside it, the stored string, the id itself. A timestamp's
 * display is recomputed from its epoch.
 */
export function localize<T>(value: T, language: Language, path = ""): T {
  if (Array.isArray(value)) return value.map((v) => localize(v, language, path)) as T;
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (isDisplayKey(key) && isLocalized(member)) out[key] = member[language];
    else out[key] = localize(member, language, path ? `${path}.${key}` : key);
  }
  if (typeof out.epoch === "number" && "display" in out)
    out.display = timestampDisplay(out.epoch * 1000, language);
  const catalog = ID_DISPLAYS[path];
  if (catalog && typeof out.id === "string" && !isLocalized(value.display)) {
    out.display = catalog[out.id]?.[language] ?? (typeof out.display === "string" ? out.display : out.id);
  }
  return out as T;
}
