/**
 * Command-line parsing with node:util's parseArgs (strict: an unknown option is a usage error), and each
 * command's help text. The package takes no CLI framework for two commands and a dozen options.
 */
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { CliFailure } from "./failure";

/** A command's options and help, as main.ts dispatches it. */
export interface CommandSpec<O extends ParseArgsOptionsConfig> {
  /** The command's name, as typed after `service-pulumi`. */
  readonly name: string;
  /** What `--help` prints. */
  readonly help: string;
  /** Its options, as parseArgs takes them (`--help` is added). */
  readonly options: O;
  /** Whether it takes positional arguments (review's files). */
  readonly positionals: boolean;
}

/** Parses `argv` for `spec`; `help` is true when `--help` was given. Bad usage throws a CliFailure. */
export function parseCommand<O extends ParseArgsOptionsConfig>(
  spec: CommandSpec<O>,
  argv: readonly string[],
) {
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { ...spec.options, help: { type: "boolean", short: "h" } },
      allowPositionals: spec.positionals,
      strict: true,
    });
    return {
      values: parsed.values,
      positionals: parsed.positionals,
      help: (parsed.values as { help?: boolean }).help === true,
    };
  } catch (error) {
    // parseArgs adds advice about positionals to some messages: its first sentence says what is wrong.
    const cause = (error as Error).message.split(/\.( |$)/)[0];
    throw new CliFailure(
      `service-pulumi ${spec.name}: ${cause}. Run \`service-pulumi ${spec.name} --help\` for its options.`,
    );
  }
}
