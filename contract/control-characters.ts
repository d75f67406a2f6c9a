import { z } from "zod";

/**
 * Control characters (C0, DEL and C1) in a string input. A URL parser silently strips some of them (a TAB,
 * CR or LF inside an endpoint) while the raw value is what gets stored and sent, so a header-injection
 * string such as `https://hooks.example.com/in\r\nX-Injected: 1` would pass a URL check. Every string
 * the package sends or the sandbox accepts is refused when it holds one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `value` is refused, or undefined when it holds no control character. */
export function controlCharacterProblem(value: string): string | undefined {
  const match = CONTROL.exec(value);
  if (!match) return undefined;
  const code = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `must not contain control characters (found U+${code} at position ${match.index})`;
}

/** A string schema that refuses control characters; chain further rules onto it. */
export function safeString(): z.ZodString {
  return z.string().refine((value) => controlCharacterProblem(value) === undefined, {
    error: (issue) => controlCharacterProblem(String(issue.input)) ?? "must not contain control characters",
  });
}
