import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");

/** Every TSDoc `@example` block of the package's sources, with the file it is in. */
function examples(): { file: string; text: string }[] {
  const files = ["contract", "provider"].flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(folder, f)),
  );
  return files.flatMap((file) =>
    [...readFileSync(join(root, file), "utf8").matchAll(/@example([\s\S]*?)(?=\*\/|\n\s*\*\s*@)/g)].map(
      (m) => ({
        file,
        text: m[1]!,
      }),
    ),
  );
}

/** The README, the docs pages and the JavaScript examples: what a reader copies from. */
function pages(): { file: string; text: string }[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f));
  const scripts = readdirSync(join(root, "examples/local-receiver"))
    .filter((f) => f.endsWith(".mjs"))
    .map((f) => join("examples/local-receiver", f));
  return ["README.md", ...docs, ...scripts].map((file) => ({
    file,
    text: readFileSync(join(root, file), "utf8"),
  }));
}

describe("the TSDoc examples (regression: createNodeHandler's used store: new Map())", () => {
  // A Map's set lowers a counter when deliveries finish out of order; the README says a store must not.
  it("give receivers a store that never lowers a counter", () => {
    const receiverExamples = examples().filter((e) =>
      /create(Node|Lambda)Handler|receiveDelivery\(/.test(e.text),
    );
    expect(receiverExamples.length).toBeGreaterThanOrEqual(2);
    expect(receiverExamples.filter((e) => /store:\s*new Map\b/.test(e.text)).map((e) => e.file)).toEqual([]);
  });

  it("and so do the README, the docs pages and the examples", () => {
    expect(
      pages()
        .filter((p) => /store:\s*new Map\b/.test(p.text))
        .map((p) => p.file),
    ).toEqual([]);
  });
});
