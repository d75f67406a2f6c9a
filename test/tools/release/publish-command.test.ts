/**
 * The commands of the publishing steps (tools/release/publish-command.mts): printed as a shell would read
 * them back, with a secret as its variable's name, and run with the secret's value read from the
 * environment only then; a missing secret is refused before anything runs.
 */
import { describe, expect, it } from "vitest";
import { runCommand, secret, shown } from "../../../tools/release/publish-command.mts";

describe("a publishing step's command", () => {
  it("is printed with each argument quoted only where a shell needs it, and a secret as its variable", () => {
    expect(
      shown({
        program: "gh",
        args: [
          "release",
          "create",
          "v0.1.0",
          "--notes",
          "See it's here.",
          "$NOT_A_SECRET",
          secret("GH_TOKEN"),
        ],
      }),
    ).toBe(`gh release create v0.1.0 --notes 'See it'\\''s here.' '$NOT_A_SECRET' "$GH_TOKEN"`);
  });

  it("runs with the secret's value, which it never prints", () => {
    const value = "planted-value-of-the-key";
    const printed: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => printed.push(chunk) > 0) as typeof process.stdout.write;
    try {
      runCommand(
        "test",
        { program: "sh", args: ["-c", 'test "$1" = planted-value-of-the-key', "sh", secret("KEY")] },
        {
          ...process.env,
          KEY: value,
        },
      );
    } finally {
      process.stdout.write = write;
    }
    expect(printed.join("")).toBe(`test: running: sh -c 'test "$1" = planted-value-of-the-key' sh "$KEY"\n`);
  });

  it("is refused when its secret is not in the environment, naming the variable", () => {
    expect(() => runCommand("test", { program: "true", args: [secret("ABSENT_KEY")] }, {})).toThrow(
      'ABSENT_KEY is not set: `true "$ABSENT_KEY"` needs it; set it in the environment.',
    );
  });

  it("names the command and its exit when it fails, without its secret", () => {
    expect(() =>
      runCommand(
        "test",
        { program: "sh", args: ["-c", "exit 3", secret("KEY")] },
        { ...process.env, KEY: "planted" },
      ),
    ).toThrow(/^`sh -c 'exit 3' "\$KEY"` exited 3; what it printed is above\.$/);
  });
});
