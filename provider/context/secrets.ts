/** What a hidden secret reads as. */
const MASK = "[REDACTED]";

/**
 * Shorter values would hide ordinary words. Every real secret is longer: the service's secret keys are at
 * least 16 characters, and its tokens and register tokens are long random strings.
 */
const MIN_SECRET_LENGTH = 8;

/** Headers whose values are credentials, whatever they hold. */
const CREDENTIAL_HEADERS = new Set(["authorization"]);

/**
 * The secrets this process has seen (API tokens, webhook secret keys, register tokens), so that no log
 * line or error message can repeat one. Values are hidden by exact match only: a pattern that guesses
 * what follows a word such as "token" also eats ordinary prose ("the API token is missing").
 */
export class SecretRegistry {
  private readonly known = new Set<string>();
  /** Longest first, so that a secret containing another is hidden whole. */
  private ordered: string[] = [];

  /** Remembers a secret value; anything that is not a long enough string is ignored. */
  remember(value: unknown): void {
    if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || this.known.has(value)) return;
    this.known.add(value);
    this.ordered = [...this.known].sort((a, b) => b.length - a.length);
  }

  /** `text` with every remembered secret replaced by [REDACTED]; the words around them stay. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.ordered) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
    }
    return out;
  }

  /** A value about to be kept on an error (a parsed response body, say), with secrets hidden at any depth. */
  redactValue(value: unknown): unknown {
    if (typeof value === "string") return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.redactValue(v)]));
    }
    return value;
  }

  /** Request headers fit to print: credential headers masked whole, other values redacted. */
  redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        CREDENTIAL_HEADERS.has(name.toLowerCase()) ? MASK : this.redact(value),
      ]),
    );
  }
}
