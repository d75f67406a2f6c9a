/** What a command reads and writes, so that tests can run it in-process. */
export interface CommandIo {
  /** The report. */
  readonly stdout: (text: string) => void;
  /** Progress, warnings and the failure line. */
  readonly stderr: (text: string) => void;
  /** All of stdin, read when a command is given `-` or no file. */
  readonly stdin: () => Promise<string>;
  /** Asks a yes/no question; resolves true for yes. */
  readonly confirm: (question: string) => Promise<boolean>;
  /** The folder relative paths resolve from. */
  readonly cwd: string;
}
