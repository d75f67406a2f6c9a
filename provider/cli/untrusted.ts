/**
 * How the commands show a value that came from their input (a preview, a state, a listing): a pull
 * request's author or whoever controls the service's answers chose it. Such a value is shown on one line,
 * with every control, line-breaking and bidirectional character written as an escape, truncated to
 * `MAX_SHOWN` characters; in Markdown it is a code span, so that nothing in it renders (no heading, link,
 * image, mention or HTML); in a suggested command it is one quoted shell word.
 */
import { redact } from "../context/process";

/** The most characters of one input value a report or a message shows; a longer one ends in "…". */
export const MAX_SHOWN = 200;

/** The most characters of a suggested command or snippet a report shows; a longer one is not shown. */
export const MAX_COMMAND = 2000;

/**
 * What a reader cannot see as it is: the C0 and C1 controls and DEL; the line and paragraph separators;
 * the format characters (zero-width spaces and joiners, the bidirectional marks, embeddings, overrides and
 * isolates, U+202E among them, the byte order mark, the invisible tag characters); every other
 * default-ignorable character (variation selectors, fillers); spaces other than U+0020, which look like
 * it but are not; and a lone surrogate, which no encoder can write. Each reorders, hides or breaks what a
 * reader sees, or makes a copied command differ from the one shown.
 */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;

/** Whether a text holds one of HIDDEN: a separate expression, since a global one's `test` keeps its place. */
const HAS_HIDDEN = new RegExp(HIDDEN.source, "u");

/** `\uXXXX`, or `\u{XXXXX}` beyond the first plane: JavaScript's escapes, so a snippet stays valid. */
const escaped = (char: string) => {
  const code = char.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
};

/**
 * `text` on one line as a reader should see it: each hidden character as `\uXXXX` (or `\u{XXXXX}`), and
 * at most `max` characters of the original (then "…").
 */
export function printable(text: string, max: number = MAX_SHOWN): string {
  // Redacted before it is cut: a secret cut in two would no longer be found whole, and its start would show.
  return truncated(redact(text), max).replace(HIDDEN, escaped);
}

/** `text`, or its first `max - 1` characters and "…"; reads no further than that, however long `text` is. */
function truncated(text: string, max: number): string {
  // A string of at most `max` UTF-16 units has at most `max` characters.
  if (text.length <= max) return text;
  const kept: string[] = [];
  for (const char of text) {
    if (kept.length === max) return `${kept.slice(0, max - 1).join("")}…`;
    kept.push(char);
  }
  return text;
}

/** Text a code span shows as it is between single backticks: printable ASCII but the backtick, unpadded. */
const PLAIN_SPAN = /^(?! )[ -_a-~]+(?<! )$/;

/**
 * `text` as a Markdown code span: printable, between runs of backticks longer than any run inside it, and
 * padded with a space where CommonMark would otherwise strip one or join a backtick to the fence. Inside
 * it nothing renders: no heading, emphasis, link, image, mention, entity or HTML.
 */
export function codeSpan(text: string, max: number = MAX_SHOWN): string {
  // A plain value short enough to show whole (most names, uuids and URLs) needs no escape, padding or cut;
  // uncut, a secret in it stays whole for the redaction of everything the command writes.
  if (text.length <= max && PLAIN_SPAN.test(text)) return `\`${text}\``;
  const shown = printable(text, max);
  if (shown === "") return '`""`';
  const longest = (shown.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = "`".repeat(longest + 1);
  // Spaces alone are shown as they are; one at either end of other text would be stripped with its twin.
  const pad = !/^ +$/.test(shown) && /^[` ]|[` ]$/.test(shown) ? " " : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** Characters a POSIX shell word may hold unquoted. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `words` as one POSIX shell command line, each word unquoted when it is plain and in single quotes
 * otherwise (a quote inside as `'\''`), so that a shell reads back exactly `words`. Undefined when a word
 * holds a hidden character, or the line would be longer than `max`: a reader could not see what the line
 * runs, or it could not be shown whole, so the caller says how to find the value instead.
 */
export function shellCommand(words: readonly string[], max: number = MAX_COMMAND): string | undefined {
  const quoted: string[] = [];
  let length = -1;
  for (const word of words) {
    if (HAS_HIDDEN.test(word)) return undefined;
    const one = PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
    length += one.length + 1;
    if (length > max) return undefined;
    quoted.push(one);
  }
  return quoted.join(" ");
}

/**
 * One line of what a command writes to stderr, fit for a terminal or a CI log: hidden characters
 * escaped, and at most `max` characters, keeping the start (the object and the cause) and the end (the
 * next step).
 */
export function stderrLine(line: string, max = 2000): string {
  if (line.length <= max) return line.replace(HIDDEN, escaped);
  const chars = Array.from(line);
  // Two halves and " … " between them: `max` characters in all.
  const half = Math.floor((max - 3) / 2);
  const kept =
    chars.length > max ? `${chars.slice(0, half).join("")} … ${chars.slice(-half).join("")}` : line;
  return kept.replace(HIDDEN, escaped);
}
