/** Runs the service-pulumi program in-process, as main.ts does, and keeps what it printed. */
import { main } from "../../provider/cli/main";

/** What one run printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The questions asked for confirmation, as the prompt shows them. */
  readonly asked: readonly string[];
}

/** Runs `service-pulumi <argv>` in `cwd`, with `stdin` as its input and `answer` to any confirmation. */
export async function runCli(
  argv: readonly string[],
  options: { cwd?: string; stdin?: string; answer?: boolean } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const asked: string[] = [];
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdin: async () => options.stdin ?? "",
    confirm: async (question) => {
      asked.push(question);
      return options.answer ?? false;
    },
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr, asked };
}
