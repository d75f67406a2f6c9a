/**
 * The settings as a value: `resolve` reads each setting of the table (table.ts) from where it can be
 * given, a resource's `connection`, the stack's configuration and the environment, once, where a process
 * starts its work (the dynamic provider's and the plugin's `configure`, the CLI's `main`, a client's
 * constructor), and everything after takes the value it returns. It is the one reader of `process.env`.
 * Like the table, it loads no zod: `configure` runs it on every start of the dynamic-provider host.
 */
import { spellProperty } from "../context/program-language";
import { SETTING_ROWS, SETTINGS, type Setting, type SettingName, stackKey, textOf } from "./table";
import type { ConfigSource, Settings, SettingTexts } from "./value";

/** Environment variables by name, as `process.env` holds them. */
type Environment = Readonly<Record<string, string | undefined>>;

/** Where a setting's value came from, first to last in precedence. */
type SettingSource = "connection" | "stack" | "env";

/** The order in which the places that can set a setting go ahead of each other. */
const PRECEDENCE: readonly SettingSource[] = ["connection", "stack", "env"];

/** What `resolve` reads: each place that can set a setting; the environment is the process's if left out. */
export interface SettingPlaces {
  /** A resource's `connection` input (or the CLI's `--token` and `--base-url`). */
  readonly connection?:
    | { readonly token?: string | undefined; readonly baseUrl?: string | undefined }
    | undefined;
  /** The stack's configuration. */
  readonly stack?: ConfigSource | undefined;
  /** The environment; the process's by default. */
  readonly env?: Environment | undefined;
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A setting read from the stack: its text, and whether it came in an old spelling. */
interface StackValue {
  readonly text: string | undefined;
  /** The setting came as a string inside its JSON text, which the schema no longer types it as. */
  readonly oldSpelling: boolean;
}

/**
 * A stack setting's value as text. A number or object setting arrives as the number or object itself (a
 * provider resource's argument), or as its JSON text: stack config holds every top-level value as text,
 * and the SDKs send a provider's arguments that are not strings as JSON. A string inside that text
 * (`"30"`, `"{\"a.test\": ...}"`) is the spelling of the schema that typed both as strings: it is still
 * read, as the old spelling. Anything else is kept as it came, for its reader to refuse.
 */
function stackValue(setting: Setting, value: unknown): StackValue {
  if (value === undefined || value === null) return { text: undefined, oldSpelling: false };
  if (typeof value !== "string") return { text: JSON.stringify(value), oldSpelling: false };
  if (setting.type === undefined) return { text: value, oldSpelling: false };
  const inner = parsedJson(value);
  return typeof inner === "string" ? { text: inner, oldSpelling: true } : { text: value, oldSpelling: false };
}

/**
 * The warning for `setting`, given under its stack config `key` in the old spelling: what it is now, in
 * the program's spelling, and that the old spelling is still read. It repeats no value.
 */
function oldSpellingWarning(setting: Setting, key: string): string {
  const property = spellProperty(setting.config!);
  const now =
    setting.type === "number"
      ? `give ${property} a number (30, not "30")`
      : `give ${property} an object (a dict, a map, a mapping), not JSON text in a string`;
  return (
    `The provider's ${property} (${key}) was given as a string, as the schema typed it before: ${now}. ` +
    "The string is still read for now; a later major version will refuse it."
  );
}

/** Only the members of `texts` that hold a value. */
function given(texts: Readonly<Record<string, string | undefined>>): SettingTexts {
  return Object.fromEntries(
    Object.entries(texts).flatMap(([name, text]) => (textOf(text) === undefined ? [] : [[name, text]])),
  );
}

/**
 * Every setting from `connection`, `stack` and `env` (the process's environment when left out). Secrets
 * arrive readable: whoever shows a value hides them (context/secrets.ts).
 */
export function resolve({ connection, stack, env = process.env }: SettingPlaces): Settings {
  const fromStack: Record<string, string | undefined> = {};
  const warnings: string[] = [];
  for (const [name, setting] of SETTING_ROWS) {
    if (stack === undefined || setting.config === undefined) continue;
    const key = stackKey(setting.config);
    const read = stackValue(setting, stack.get(key));
    fromStack[name] = read.text;
    if (read.oldSpelling) warnings.push(oldSpellingWarning(setting, key));
  }
  return {
    connection: given({ token: connection?.token, baseUrl: connection?.baseUrl }),
    stack: given(fromStack),
    env: given(Object.fromEntries(SETTING_ROWS.map(([name, s]) => [name, s.env && env[s.env]]))),
    warnings,
    pulumiHome: textOf(env.PULUMI_HOME),
  };
}

/** `settings` with a resource's `connection` going ahead of the rest. */
export function withConnection(settings: Settings, connection: SettingPlaces["connection"]): Settings {
  return { ...settings, connection: given({ token: connection?.token, baseUrl: connection?.baseUrl }) };
}

/** Where `name`'s value comes from in `settings`, or undefined when nothing sets it. */
function sourceOf(settings: Settings, name: SettingName): SettingSource | undefined {
  return PRECEDENCE.find((place) => settings[place][name] !== undefined);
}

/** The text of `name` in `settings` from the first place that sets it, or undefined. */
export function settingText(settings: Settings, name: SettingName): string | undefined {
  const source = sourceOf(settings, name);
  return source === undefined ? undefined : settings[source][name];
}

/** The text of `name` from the first place that sets it, else its default as the table writes it. */
export function settingOrDefault(settings: Settings, name: SettingName): string | undefined {
  const fallback: string | number | undefined = (SETTINGS[name] as Setting).default;
  return settingText(settings, name) ?? (fallback === undefined ? undefined : String(fallback));
}
