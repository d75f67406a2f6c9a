/**
 * `service-pulumi audit --import-file <file>`: the orphans of an audit as Pulumi's import file, the JSON
 * that `pulumi import --file <file>` reads (its `resources`: `type`, `name`, `id`), so that one command
 * adopts every orphaned webhook and domain through the provider plugin, and `--out` writes the program's
 * code in the project's language.
 *
 * Each resource's name is derived from the webhook's channel or the domain's hostname, which the listing
 * chose: it is made of ASCII letters and digits alone, in camelCase, so that it is one valid identifier in
 * every language Pulumi generates (TypeScript, Python, Go, C#, Java, YAML) and nothing in it can be code,
 * markup or a shell word's end. It is no keyword of those languages, and no name the generated code uses
 * itself (`pulumi`, `service`, `config`, ...). Names are unique regardless of case (Python's generator
 * rewrites `ordersEu` as `orders_eu`, C#'s capitalises), and differ from the resources the audited states
 * hold already. The id is the listing's value as it is: JSON holds any text, and the engine passes it to
 * the provider alone, never to a shell or into code.
 *
 * The service never returns a webhook's secret key, so the file cannot hold it; and `inputs` (values the
 * provider's Read cannot return, since Pulumi v3.254) would need its value, which the engine stores in the
 * state and prints into the generated code as a literal (`secret("…")`). Each webhook's key goes to the
 * stack's config instead, and the program reads it from there: `secrets` names the config key and the
 * line each language adds.
 */
import { domainVerification, webhook } from "../registry";
import type { OrganizationAudit } from "./audit-model";
import { CliFailure } from "./failure";
import type { StackState } from "./state-export";
import { printable, shellCommand } from "./untrusted";

/** One resource of Pulumi's import file, as `pulumi import --file` reads it. */
interface ImportSpec {
  /** The provider plugin's type token. */
  readonly type: string;
  /** The resource's name, and the variable's in the generated code. */
  readonly name: string;
  /** The webhook's uuid, or the domain's hostname. */
  readonly id: string;
}

/** Pulumi's import file. */
interface ImportFile {
  readonly resources: readonly ImportSpec[];
}

/** What an adopted webhook needs before its preview is clean: its secret key, from the stack's config. */
interface SecretToAdd {
  /** The resource's name in the import file. */
  readonly name: string;
  readonly uuid: string;
  /** The stack config key that holds the webhook's secret key. */
  readonly configKey: string;
}

/** An import file, and what its webhooks need next. */
export interface Adoption {
  readonly file: ImportFile;
  readonly secrets: readonly SecretToAdd[];
}

/**
 * Keywords of TypeScript/JavaScript, Python, Go, C# and Java, and the names the generated programs use
 * themselves (the SDK's and the package's module, the config object, Go's context and error), lowercase:
 * a name that is one of them, in any case, takes its kind as a suffix.
 */
const RESERVED = new Set(
  [
    // TypeScript and JavaScript
    "abstract any as async await boolean break case catch class const constructor continue debugger declare default delete do else enum export extends false finally for from function get if implements import in instanceof interface is keyof let module namespace never new null number object of package private protected public readonly require return set static string super switch symbol this throw true try type typeof undefined unique unknown var void while with yield arguments eval exports",
    // Python
    "and assert def del elif except global lambda nonlocal none not or pass raise self print",
    // Go
    "chan defer fallthrough func go goto map range select struct main nil error err ctx",
    // C#
    "base bool byte char checked decimal double event explicit extern fixed float foreach implicit int internal lock long operator out override params ref sbyte sealed short sizeof stackalloc uint ulong unchecked unsafe ushort using virtual volatile dynamic partial value",
    // Java
    "final native strictfp synchronized throws transient goto assert",
    // The generated programs' own names
    "pulumi service config cfg deployment output input resource stack",
  ]
    .join(" ")
    .split(" "),
);

/** The longest name given: a channel or hostname is at most a few hundred characters. */
const MAX_NAME = 64;

/** `text`'s ASCII letters and digits, as camelCase words: "orders-EU v2" is "ordersEuV2". */
function camelCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words
    .map((word, i) => {
      const lower = word.toLowerCase();
      return i === 0 ? lower : lower[0]!.toUpperCase() + lower.slice(1);
    })
    .join("");
}

/**
 * A name for an object of `kind` known by `text` (its channel or hostname; null when a state keeps it
 * secret), unique among `taken` (lowercase), which it joins.
 */
function uniqueName(
  kind: "webhook" | "domain",
  text: string | null | undefined,
  uuid: string,
  taken: Set<string>,
) {
  let base = camelCase(text ?? "").slice(0, MAX_NAME);
  if (base === "") base = `${kind}${camelCase(uuid).slice(0, 8)}`;
  if (/^[0-9]/.test(base)) base = `${kind}${base}`.slice(0, MAX_NAME);
  const suffix = kind === "webhook" ? "Webhook" : "Domain";
  if (RESERVED.has(base.toLowerCase())) base = `${base}${suffix}`;
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base}${n}`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * The import file of the orphans of `audits` (every orphaned webhook, and every domain in no state,
 * orphaned or in use), domains first, each kind in the report's order; undefined when there is none.
 * Refused when the orphans belong to more than one organization: one stack's provider reads them all,
 * with one organization's credentials.
 */
export function adoptionOf(
  audits: readonly OrganizationAudit[],
  states: readonly StackState[],
): Adoption | undefined {
  const withOrphans = audits.filter(
    (a) => a.webhooks.some((w) => w.status === "orphaned") || a.domains.some((d) => d.adopt !== null),
  );
  if (withOrphans.length === 0) return undefined;
  if (withOrphans.length > 1) {
    throw new CliFailure(
      `service-pulumi audit --import-file: organizations ${withOrphans.map((a) => a.organization).join(" and ")} both have objects to adopt, and one stack's provider reads one organization's: audit the stacks of one organization at a time (--stacks, or --state with its --token).`,
    );
  }
  const [audit] = withOrphans;
  const taken = new Set(states.flatMap((s) => s.objects.map((o) => o.name.toLowerCase())));
  const resources: ImportSpec[] = [];
  const secrets: SecretToAdd[] = [];
  for (const domain of audit!.domains.filter((d) => d.adopt !== null && d.domainName !== undefined)) {
    const name = uniqueName("domain", domain.domainName, domain.uuid, taken);
    resources.push({ type: domainVerification.pluginToken, name, id: domain.domainName! });
  }
  for (const hook of audit!.webhooks.filter((w) => w.status === "orphaned")) {
    const name = uniqueName("webhook", hook.channel, hook.uuid, taken);
    resources.push({ type: webhook.pluginToken, name, id: hook.uuid });
    secrets.push({ name, uuid: hook.uuid, configKey: `${name}SecretKey` });
  }
  return { file: { resources }, secrets };
}

/**
 * What `--import-file` says on stderr once the file is written: what it holds, the command that adopts it,
 * and for each webhook the config key of its secret and the line the program adds.
 */
export function adoptionLines(path: string, adoption: Adoption): string[] {
  const count = (kind: string, n: number) => `${n} ${kind}${n === 1 ? "" : "s"}`;
  const domains = adoption.file.resources.length - adoption.secrets.length;
  const file = shellCommand([path]) ?? "<the file>";
  const lines = [
    `Wrote ${printable(path)}: ${count("domain", domains)} and ${count("webhook", adoption.secrets.length)} to adopt. In the project's folder, with the stack selected: \`pulumi import --file ${file} --out <program file>\` (index.ts, __main__.py, main.go, Program.cs).`,
  ];
  if (adoption.secrets.length === 0) return lines;
  return [
    ...lines,
    "The service never returns a webhook's secret key, so the program that `pulumi import` writes gives each webhook an empty one: set each webhook's key in the stack's config, and have the program read it there (declare the config once: `const config = new pulumi.Config();` in TypeScript, `config = pulumi.Config()` in Python):",
    ...adoption.secrets.map(
      ({ name, uuid, configKey }) =>
        `- ${name} (webhook ${printable(uuid)}): \`pulumi config set --secret ${configKey}\` (it asks for the key), then in its arguments \`secretKey: config.requireSecret("${configKey}")\` for \`secretKey: ""\` in TypeScript, \`secret_key=config.require_secret("${configKey}")\` for \`secret_key=""\` in Python.`,
    ),
  ];
}
