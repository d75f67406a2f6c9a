/**
 * Process-wide scrubbing of credentials. Every secret the client handles (API tokens, webhook secret
 * keys, register tokens) is remembered here the moment it is seen, and every log line and error text
 * passes through `redact` before anyone can read it.
 */
const known = new Set<string>();
const MASK = "[REDACTED]";
// Shorter values would mask ordinary words; the service's own minimum secret length is 16.
const MIN_SECRET_LENGTH = 6;

const PATTERNS: readonly [RegExp, string][] = [
  [/(Token\s+)[^\s"',}]+/gi, `$1${MASK}`],
  [
    /("?(?:secret_key|secretKey|register_token|registerToken|token|authorization)"?\s*[:=]\s*")[^"]*"/gi,
    `$1${MASK}"`,
  ],
];

export function rememberSecret(value: string | undefined | null): void {
  if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH) known.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Redacts a value that is about to be kept on an error (a parsed response body, say). */
export function redactValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(redact(JSON.stringify(value)));
  } catch {
    return redact(String(value));
  }
}
