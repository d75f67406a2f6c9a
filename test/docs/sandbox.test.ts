import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The sandbox refuses an admin POST sent as a form (curl's `-d` default), because that is what a web page
 * can send cross-site. Every curl line the docs give a user for the admin routes must therefore say JSON,
 * or the quickstart's first command answers 403.
 */
const root = join(__dirname, "../..");
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs")).map((f) => join("docs", f)),
  ...readdirSync(join(root, "examples")).map((d) => join("examples", d, "README.md")),
].filter((f) => f.endsWith(".md"));

/** Each curl command, its continuation lines joined. */
function curlCommands(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => /^\s*curl\b/.test(line));
}

describe("curl commands in the docs", () => {
  it.each(documents)("%s: every body sent to an admin route is declared as JSON", (file) => {
    const admin = curlCommands(readFileSync(join(root, file), "utf8")).filter(
      (command) => command.includes("/_sandbox/") && /\s-d\s/.test(command),
    );
    for (const command of admin) expect(command).toMatch(/-H 'content-type: application\/json'/i);
  });
});
