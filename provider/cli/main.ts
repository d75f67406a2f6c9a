#!/usr/bin/env node
/**
 * `service-pulumi`, the package's command-line program: `review` (what pull requests change for
 * deliveries and quota) and `audit` (what an organization runs that no stack knows). It prints the
 * report on stdout, and each failure as one line on stderr, with exit code 2.
 */
import { createInterface } from "node:readline/promises";
import { redact } from "../context/process";
import { resolve } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { runAudit } from "./audit";
import type { CommandIo } from "./command";
import { CliFailure, EXIT } from "./failure";
import { readStream } from "./json-input";
import { runReview } from "./review";
import { stderrLine } from "./untrusted";

const COMMANDS: Readonly<
  Record<string, (argv: readonly string[], io: CommandIo, settings: Settings) => Promise<number>>
> = {
  review: runReview,
  audit: runAudit,
};

const HELP = `Usage: service-pulumi <command> [options]

Commands:
  review   What the previews of one or more stacks do to deliveries and to each organization's quota.
  audit    Every active webhook and registered domain of each organization, against the stacks' states.

Run \`service-pulumi <command> --help\` for a command's options.
`;

/**
 * One line of stderr, fit for a terminal or a CI log, with no secret: each write is one line, so a newline
 * inside it (which only a value from the input brings) is escaped like any control character, and cannot
 * forge a line of its own (a CI system's `::error::` command, say). The final newline is kept.
 */
const oneLine = (text: string) =>
  `${stderrLine(redact(text.replace(/\n$/, "")))}${text.endsWith("\n") ? "\n" : ""}`;

/**
 * `io` with no secret in anything written, and stderr (and the prompt) on lines with no control or
 * bidirectional character: what a command writes may quote its input, which a pull request or a listing
 * chose. A secret is registered before the first child process or request, so it is hidden here whichever
 * line repeats it.
 */
function guarded(io: CommandIo): CommandIo {
  return {
    ...io,
    stdout: (text) => io.stdout(redact(text)),
    stderr: (text) => io.stderr(oneLine(text)),
    confirm: (question) => io.confirm(oneLine(question)),
  };
}

/** Runs the program with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], given: CommandIo): Promise<number> {
  const io = guarded(given);
  const settings = resolve({});
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(HELP);
    return name === undefined ? EXIT.failure : EXIT.clean;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(
      `service-pulumi: ${name} is not a command: give one of ${Object.keys(COMMANDS).join(", ")} (see --help).\n`,
    );
    return EXIT.failure;
  }
  try {
    return await command(rest, io, settings);
  } catch (error) {
    if (error instanceof CliFailure) {
      io.stderr(`${error.message}\n`);
      return EXIT.failure;
    }
    // Not one of the failures the commands expect: still one line, and never a secret.
    io.stderr(
      `service-pulumi ${name}: ${(error as Error).message ?? String(error)}: run again with SERVICE_DEBUG=1 for the stack trace, and report it if it persists.\n`,
    );
    if (settings.env.debug !== undefined) {
      for (const line of ((error as Error).stack ?? "").split("\n")) io.stderr(`${line}\n`);
    }
    return EXIT.failure;
  }
}

/** The process's own streams. */
function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdin: () => readStream(process.stdin),
    confirm: async (question) => {
      if (!process.stdin.isTTY) return false;
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
      } finally {
        rl.close();
      }
    },
    cwd: process.cwd(),
  };
}

if (require.main === module) {
  main(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`service-pulumi: ${stderrLine(redact(String(error)))}\n`);
      process.exitCode = EXIT.failure;
    },
  );
}
