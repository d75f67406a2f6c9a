/**
 * The language of the Pulumi program a provider serves, and how advice spells a property or a resource
 * option in it. A Python user told to set `deleteBeforeReplace` or `secretKey` looks for a name their SDK
 * does not have (`delete_before_replace`, `secret_key`); advice that names an option or a property goes
 * through this module so that it reads in the program's own spelling, and names every spelling when the
 * language cannot be known.
 *
 * Where the language comes from: the dynamic provider only ever serves Node.js programs, so its
 * `configure` sets `nodejs`; the provider plugin reads the `runtime` of the project's Pulumi.yaml, found
 * from its working directory, which the engine sets to the program's folder (`ctx.Pwd`, the folder of the
 * project's `main`) whether it runs the plugin directly or through the Node.js language host.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { contextKey, processContext } from "./process";

/** The runtimes whose SDKs can use this package, by the name Pulumi.yaml's `runtime` gives them. */
export type ProgramLanguage = "nodejs" | "python" | "go" | "yaml" | "dotnet";

/** Every language, in the order advice lists them when it must name them all. */
const LANGUAGES: readonly ProgramLanguage[] = ["nodejs", "python", "go", "yaml", "dotnet"];

/** How a reader knows each language (a Node.js program here is TypeScript or JavaScript, spelled alike). */
const LANGUAGE_NAMES: Readonly<Record<ProgramLanguage, string>> = {
  nodejs: "TypeScript",
  python: "Python",
  go: "Go",
  yaml: "YAML",
  dotnet: "C#",
};

/** The resource options advice may name, as the Node.js SDK spells them. */
export type ResourceOptionName =
  | "dependsOn"
  | "deleteBeforeReplace"
  | "retainOnDelete"
  | "ignoreChanges"
  | "protect"
  | "replaceOnChanges";

/** A value advice gives an option: a flag, or the program variables of the resources it lists. */
export type OptionValue = boolean | readonly string[];

const LANGUAGE = contextKey<{ language: ProgramLanguage | undefined }>("program language", () => ({
  language: undefined,
}));

/** The language of the program this process serves; undefined until a provider has set it. */
export function programLanguage(): ProgramLanguage | undefined {
  return processContext().get(LANGUAGE).language;
}

/** Records the language of the program this process serves (undefined when it cannot be known). */
export function setProgramLanguage(language: ProgramLanguage | undefined): void {
  processContext().get(LANGUAGE).language = language;
}

/** The language a Pulumi.yaml `runtime:` names, or undefined for a language this package has no SDK for. */
function languageOfName(name: string): ProgramLanguage | undefined {
  return LANGUAGES.find((language) => language === name.trim().toLowerCase());
}

/** A YAML scalar as written: quotes and a trailing comment removed. */
const scalar = (text: string) =>
  text
    .replace(/\s+#.*$/, "")
    .trim()
    .replace(/^(["'])(.*)\1$/, "$2");

/**
 * The language name that a Pulumi.yaml's text gives under `runtime:` (Pulumi's word for it):
 * `runtime: python`, `runtime: {name: python}`, or a `runtime:` block whose `name:` is indented under
 * it. Only the top-level key is read, so no YAML parser is needed.
 */
export function languageNameOfProject(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => /^runtime\s*:/.test(line));
  if (at < 0) return undefined;
  const rest = scalar(lines[at]!.replace(/^runtime\s*:/, ""));
  if (rest.startsWith("{")) {
    const name = /\bname\s*:\s*([^,}]+)/.exec(rest)?.[1];
    return name === undefined ? undefined : scalar(name);
  }
  if (rest !== "") return rest;
  for (const line of lines.slice(at + 1)) {
    if (!/^\s/.test(line) && line.trim() !== "") break;
    const name = /^\s+name\s*:(.*)$/.exec(line)?.[1];
    if (name !== undefined) return scalar(name);
  }
  return undefined;
}

/** The project files Pulumi reads, in the order it looks for them. */
const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml"];

/**
 * The language of the project that `directory` belongs to: the `runtime` of the first Pulumi.yaml found
 * in it or a folder above it. Undefined when there is none, or its runtime is one this package does not
 * know.
 */
export function findProgramLanguage(directory: string = process.cwd()): ProgramLanguage | undefined {
  for (let dir = directory; ; dir = dirname(dir)) {
    const file = PROJECT_FILES.map((name) => join(dir, name)).find((path) => existsSync(path));
    if (file) {
      const name = languageNameOfProject(readFileSync(file, "utf8"));
      return name === undefined ? undefined : languageOfName(name);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `name` (camelCase) in snake_case, as Pulumi's Python code generator spells it: `baseUrl` → `base_url`. */
const snake = (name: string) =>
  name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();

/** `name` (camelCase) in PascalCase, as the Go and .NET code generators spell it: `secretKey` → `SecretKey`. */
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** How each language spells one name of the schema. */
const NAME_STYLE: Readonly<Record<ProgramLanguage, (name: string) => string>> = {
  nodejs: (name) => name,
  python: snake,
  go: pascal,
  yaml: (name) => name,
  dotnet: pascal,
};

/**
 * A property path of the schema (`secretKey`, `connection.baseUrl`, `filters[0].key`) as `language`'s SDK
 * spells it: `secret_key` and `connection.base_url` in Python, `SecretKey` in Go and C#.
 */
export function propertyName(path: string, language: ProgramLanguage): string {
  return path.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (name) => NAME_STYLE[language](name));
}

/**
 * The same text in every language, as advice names it when the language is unknown: the TypeScript
 * spelling first, then each other spelling with the languages that use it.
 */
function everyLanguage(spell: (language: ProgramLanguage) => string): string {
  const byText = new Map<string, string[]>();
  for (const language of LANGUAGES) {
    const text = spell(language);
    byText.set(text, [...(byText.get(text) ?? []), LANGUAGE_NAMES[language]]);
  }
  const [first, ...others] = [...byText.entries()];
  if (others.length === 0) return first![0];
  const alternatives = others.map(([text, names]) => `${text} in ${names.join(" and ")}`);
  return `${first![0]} (${alternatives.join(", ")})`;
}

/**
 * A property path in the program's spelling, in backticks: `` `secret_key` `` in Python. When the language
 * is unknown, every spelling: `` `secretKey` (`secret_key` in Python, `SecretKey` in Go and C#) ``.
 */
export function spellProperty(
  path: string,
  language: ProgramLanguage | undefined = programLanguage(),
): string {
  const spell = (l: ProgramLanguage) => `\`${propertyName(path, l)}\``;
  return language === undefined ? everyLanguage(spell) : spell(language);
}

/** A resource option's name in one language: a member of the options (a function in Go). */
function optionName(option: ResourceOptionName, language: ProgramLanguage): string {
  return language === "go" ? `pulumi.${pascal(option)}` : NAME_STYLE[language](option);
}

/**
 * A resource option's name in the program's spelling, in backticks: `` `delete_before_replace` `` in
 * Python, `` `pulumi.DeleteBeforeReplace` `` in Go, `` `deleteBeforeReplace` under `options:` `` in YAML.
 * When the language is unknown, every spelling.
 */
export function spellOption(
  option: ResourceOptionName,
  language: ProgramLanguage | undefined = programLanguage(),
): string {
  const spell = (l: ProgramLanguage) =>
    l === "yaml" ? `\`${option}\` under \`options:\`` : `\`${optionName(option, l)}\``;
  return language === undefined ? everyLanguage(spell) : spell(language);
}

/** `value` written in `language`: a flag, or a list of the program variables of resources. */
function optionValue(value: OptionValue, language: ProgramLanguage): string {
  if (typeof value === "boolean") {
    if (language === "python") return value ? "True" : "False";
    return String(value);
  }
  switch (language) {
    case "go":
      return `[]pulumi.Resource{${value.join(", ")}}`;
    case "yaml":
      return `[${value.map((name) => `\${${name}}`).join(", ")}]`;
    case "dotnet":
      return `{ ${value.join(", ")} }`;
    default:
      return `[${value.join(", ")}]`;
  }
}

/** The option set to `value`, as a program in `language` writes it, in backticks with where it goes. */
function settingIn(option: ResourceOptionName, value: OptionValue, language: ProgramLanguage): string {
  const name = optionName(option, language);
  const written = optionValue(value, language);
  switch (language) {
    case "python":
      return `\`opts=pulumi.ResourceOptions(${name}=${written})\``;
    case "go":
      return `\`${name}(${written})\``;
    case "yaml":
      return `\`${name}: ${written}\` under \`options:\``;
    case "dotnet":
      return `\`new CustomResourceOptions { ${name} = ${written} }\``;
    default:
      return `\`${name}: ${written}\``;
  }
}

/**
 * The resource option set to `value`, as a phrase that completes "give this Webhook ...", in the
 * program's spelling: "the resource option `deleteBeforeReplace: true`" in TypeScript,
 * "`opts=pulumi.ResourceOptions(delete_before_replace=True)`" in Python, "the resource option
 * `pulumi.DependsOn([]pulumi.Resource{domain})`" in Go. When the language is unknown, every spelling.
 * A list value names the program's variables of the resources, written as each language refers to them.
 */
export function optionSetting(
  option: ResourceOptionName,
  value: OptionValue,
  language: ProgramLanguage | undefined = programLanguage(),
): string {
  const phrase = (l: ProgramLanguage) =>
    l === "python" || l === "yaml" || l === "dotnet"
      ? settingIn(option, value, l)
      : `the resource option ${settingIn(option, value, l)}`;
  if (language !== undefined) return phrase(language);
  return `the resource option ${everyLanguage((l) => settingIn(option, value, l))}`;
}
