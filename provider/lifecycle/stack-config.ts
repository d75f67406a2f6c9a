import { contextKey, processContext, rememberSecret } from "../context/process";
import { spellProperty } from "../context/program-language";
import { type CONFIG_NAMESPACE, SETTINGS, type Setting, stackKey } from "../settings/table";

/**
 * The namespaced keys of the settings among `settings` that stack config can set, by setting name. A
 * generic over the table, so that the declarations show the keys themselves and never reach the table's
 * zod schemas.
 */
function stackKeys<T extends Readonly<Record<string, Setting>>>(
  settings: T,
): {
  readonly [K in keyof T as T[K] extends { readonly config: string } ? K : never]: T[K] extends {
    readonly config: infer C extends string;
  }
    ? `${typeof CONFIG_NAMESPACE}:${C}`
    : never;
} {
  return Object.fromEntries(
    Object.entries(settings).flatMap(([name, s]) => (s.config ? [[name, stackKey(s.config)]] : [])),
  ) as never;
}

/**
 * The stack configuration the provider reads (the dynamic resources' and the provider plugin's alike),
 * namespaced keys as `configure` receives them. Each setting left out falls back on its own to the
 * environment; a resource's `connection` input goes ahead of both.
 */
export const STACK_KEYS = stackKeys(SETTINGS);

/**
 * What `configure` read from the stack, by setting name, as the readers take it: text, a number in its
 * decimal spelling and an object in JSON (secrets arrive readable).
 */
export type StackSettings = { readonly [K in keyof typeof STACK_KEYS]?: string | undefined };

const STACK = contextKey<{ settings: StackSettings }>("stack configuration", () => ({ settings: {} }));

/** Anything that answers `get(key)`: the engine's ConfigureRequest config, or a test's map. */
export interface ConfigSource {
  /**
   * The value of a namespaced key such as `service:token`, or undefined when the stack does not set it:
   * text as stack config and the dynamic-provider host give every value, or the number or object a
   * provider resource's typed argument is.
   */
  get(key: string): unknown;
}

/** A setting read from a ConfigSource: its text for the readers, and whether it came in an old spelling. */
interface ReadSetting {
  readonly text: string | undefined;
  /** The setting came as a string inside its JSON text, which the schema no longer types it as. */
  readonly oldSpelling: boolean;
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A setting's value as its readers take it. A number or object setting arrives as the number or object
 * itself (a provider resource's argument), or as its JSON text: stack config holds every top-level value as
 * text, and the SDKs send a provider's arguments that are not strings as JSON. A string inside that text
 * (`"30"`, `"{\"a.test\": ...}"`) is the spelling of the schema that typed both as strings: it is still
 * read, as the old spelling. Anything else is kept as it came, for its reader to refuse.
 */
function readSetting(setting: Setting, value: unknown): ReadSetting {
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

/**
 * Called by every provider's `configure`, which the engine runs before the first operation. Answers the
 * warnings due for settings given in an old spelling, one per setting, for the caller to show.
 */
export function configureFromStack(config: ConfigSource): string[] {
  const settings: Record<string, string | undefined> = {};
  const warnings: string[] = [];
  for (const [name, key] of Object.entries(STACK_KEYS)) {
    const setting = SETTINGS[name as keyof typeof STACK_KEYS] as Setting;
    const read = readSetting(setting, config.get(key));
    settings[name] = read.text;
    if (setting.secret) rememberSecret(read.text);
    if (read.oldSpelling) warnings.push(oldSpellingWarning(setting, key));
  }
  processContext().get(STACK).settings = settings as StackSettings;
  return warnings;
}

/** The settings `configure` read in this process (none before it ran). */
export function stackSettings(): StackSettings {
  return processContext().get(STACK).settings;
}
