/**
 * The JSON a command reads (provider/cli/json-input.ts), from a file, a pipe or stdin: bounded in bytes,
 * in objects and arrays, and in steps, each refusal naming the limit, before the input is held whole.
 */
import { execFileSync } from "node:child_process";
import { createWriteStream, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  MAX_INPUT_BYTES,
  MAX_INPUT_CONTAINERS,
  MAX_INPUT_ITEMS,
  readStream,
} from "../../../provider/cli/json-input";
import { stackResource, useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";
import { HOOKS_TOKEN } from "../../helpers/fixtures";

const { dir } = useCliFolder("cli-json-input-");

describe("bounded input", () => {
  it("reads a preview from a pipe, which has no size to check, within the same limit", async () => {
    const fifo = join(dir, "preview.fifo");
    execFileSync("mkfifo", [fifo]);
    const text = JSON.stringify({ steps: [{ op: "same", urn: stackResource("dev").urn }] });
    const writer = new Promise<void>((resolve, reject) => {
      const stream = createWriteStream(fifo);
      stream.on("error", reject);
      stream.end(text, resolve);
    });
    const run = await runCli(["review", fifo], { cwd: dir });
    await writer;
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("### `infra/dev`");
  });

  it("refuses a preview of more steps than it reads, naming the limit", async () => {
    const step = { op: "same", urn: stackResource("dev").urn };
    const file = "many-steps.json";
    writeFileSync(
      join(dir, file),
      `{"steps":[${Array(MAX_INPUT_ITEMS + 1)
        .fill(JSON.stringify(step))
        .join(",")}]}`,
    );
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `many-steps.json: ${MAX_INPUT_ITEMS + 1} steps, more than a command reads (${MAX_INPUT_ITEMS}): give the output of \`pulumi preview --json --show-sames\` (one file per stack, or - for stdin).\n`,
    );
  });

  it("refuses input of more objects and arrays than it reads, before parsing it", async () => {
    const file = "many-objects.json";
    writeFileSync(join(dir, file), `{"steps":[],"x":[${"{},".repeat(MAX_INPUT_CONTAINERS)}{}]}`);
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `many-objects.json: more than ${MAX_INPUT_CONTAINERS} objects and arrays, more than a command reads: give the output of \`pulumi preview --json --show-sames\` (one file per stack, or - for stdin).\n`,
    );
  });

  it("refuses a file or a stdin larger than it reads, before holding it in memory", async () => {
    const file = "huge.json";
    writeFileSync(join(dir, file), "");
    truncateSync(join(dir, file), MAX_INPUT_BYTES + 1);
    const run = await runCli(["audit", "--token", HOOKS_TOKEN, "--state", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "huge.json: 257 MiB, more than a command reads (256 MiB): give a file written by `pulumi stack export --stack <name> > huge.json`.\n",
    );
    let pulled = 0;
    const endless = Readable.from(
      (function* () {
        for (let i = 0; i < 1000; i += 1) {
          pulled += 1;
          yield Buffer.alloc(1024);
        }
      })(),
    );
    await expect(readStream(endless, 10 * 1024)).rejects.toThrow(
      "stdin: the input goes on, more than a command reads (1 MiB): give the preview or state of one stack.",
    );
    expect(pulled).toBeLessThan(20);
  });
});
