/**
 * The real Pulumi CLI, driven the way a user drives it: a project folder, `pulumi` commands with a local
 * file backend, and a passphrase, in the hermetic environment of tools/engine/pulumi-engine.mts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { webhook } from "../../provider/registry";
import { builtPulumi, hermeticEnvironment } from "../../tools/engine/pulumi-engine.mts";
import { findExecutable, findPulumiCli } from "../../tools/quickstart/pulumi-cli";
import { describeSurvivors, killAll, newProcessMark, PROCESS_MARK, survivorsOf } from "./marked-processes";

const root = join(__dirname, "../..");

/** Set to 1 where the engine must be present (CI): then its absence fails instead of skipping. */
const REQUIRE_VARIABLE = "SERVICE_REQUIRE_PULUMI_CLI";

const ENGINE_SKIP_REASON =
  "SKIPPED: no Pulumi CLI, so the end-to-end tests under the real engine did not run. " +
  "Build it with `npm run engine` (needs Go 1.25+), then run `npm run test:e2e`.";

export const ENGINE_MISSING_REASON =
  `No Pulumi CLI was found, and ${REQUIRE_VARIABLE}=1 says the end-to-end tests must run here. ` +
  "Run `npm run engine` first (it builds the CLI from its Go modules), or unset the variable to skip them.";

/** The CLI these tests run: the one `npm run engine` built, else one on PATH. */
function findEngine(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return builtPulumi(env) ?? findPulumiCli({ env });
}

/** Programs besides the CLI that a file's tests run, looked up on PATH: `go`, `python3`. */
export interface EngineNeeds {
  readonly tools: readonly string[];
}

/** What to install for each program a test file may need. */
const TOOL_INSTALLS: Readonly<Record<string, string>> = {
  go: "Go 1.25 or later",
  python3: "Python 3 with venv and pip",
};

/** The one line that says why tests that need `tools` did not run, or must fail, for lack of `missing`. */
function toolsMissingReason(tools: readonly string[], missing: readonly string[], required: boolean): string {
  const names = missing.join(" and ");
  const isOrAre = missing.length > 1 ? "are" : "is";
  const install = missing.map((tool) => TOOL_INSTALLS[tool] ?? tool).join(" and ");
  return required
    ? `${names} ${isOrAre} not on PATH, and ${REQUIRE_VARIABLE}=1 says the end-to-end tests must run here: ` +
        `install ${install}, or unset the variable to skip the tests that need ${missing.length > 1 ? "them" : "it"}.`
    : `SKIPPED: end-to-end tests that run ${tools.join(" and ")} did not run, because ${names} ${isOrAre} not ` +
        `on PATH. Install ${install} to run them.`;
}

/**
 * Whether the end-to-end tests run, are skipped, or must fail because the CLI, or a program they need
 * (`needs.tools`), is required and missing; `reason` is the one line that says which, when they do not run.
 */
export function engineGate(env: NodeJS.ProcessEnv = process.env, needs: EngineNeeds = { tools: [] }) {
  const cli = findEngine(env);
  const required = env[REQUIRE_VARIABLE] === "1";
  const missingTools = needs.tools.filter((tool) => !findExecutable(tool, { env }));
  const runs = cli !== undefined && missingTools.length === 0;
  const reason = runs
    ? undefined
    : !cli
      ? required
        ? ENGINE_MISSING_REASON
        : ENGINE_SKIP_REASON
      : toolsMissingReason(needs.tools, missingTools, required);
  return { cli, missingTools, reason, missingButRequired: !runs && required, skipped: !runs && !required };
}

/**
 * A describe block of end-to-end tests: run under the CLI, skipped with one line when there is none (or
 * when a program in `needs.tools` is not on PATH), and failing instead where SERVICE_REQUIRE_PULUMI_CLI=1
 * says they must run.
 */
export function describeUnderEngine(title: string, body: () => void): void;
export function describeUnderEngine(title: string, needs: EngineNeeds, body: () => void): void;
export function describeUnderEngine(
  title: string,
  needsOrBody: EngineNeeds | (() => void),
  maybeBody?: () => void,
): void {
  const [needs, body] =
    typeof needsOrBody === "function" ? [undefined, needsOrBody] : [needsOrBody, maybeBody!];
  const { missingButRequired, skipped, reason } = engineGate(process.env, needs);
  if (skipped) console.warn(reason);
  describe.runIf(missingButRequired)("what the end-to-end tests need", () => {
    it("is here: the Pulumi CLI (built by `npm run engine` or on PATH) and the programs they run", () => {
      throw new Error(reason);
    });
  });
  describe.skipIf(reason !== undefined)(title, body);
}

/** What one `pulumi` command printed, and how it ended. */
export interface CommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout then stderr, as a user's terminal shows them. */
  readonly output: string;
}

export interface ProjectOptions {
  /** The folder to copy the project from. */
  readonly from?: string;
  /** Or the folder to run in as it is (a consumer project installed from the packed tarball). */
  readonly at?: string;
  /** What to copy from it, relative paths; everything when absent. */
  readonly files?: readonly string[];
  /** Extra environment for every command (SERVICE_* settings of the provider). */
  readonly env?: NodeJS.ProcessEnv;
  /** Another project's backend, so that two projects' stacks live side by side as in one repo. */
  readonly backend?: string;
}

/** Folders to remove when the test file ends, whether its tests passed or not. */
const leftovers: string[] = [];
afterAll(() => {
  for (const path of leftovers.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** This test file's mark, in the environment of every command it runs and so of all they start. */
const processMark = newProcessMark();
/** How long a language host or plugin may take to notice that its engine is gone, and end. */
const SURVIVOR_GRACE_MS = 10_000;
/**
 * Nothing this file started may outlive it: no `pulumi`, language host, provider plugin or program.
 * Survivors are named in the failure, then killed.
 */
afterAll(async () => {
  const survivors = await survivorsOf(processMark, SURVIVOR_GRACE_MS);
  if (survivors.length === 0) return;
  killAll(survivors);
  throw new Error(
    `${survivors.length} process(es) started by this file's pulumi commands still ran ` +
      `${SURVIVOR_GRACE_MS / 1000} s after its last test:\n${describeSurvivors(survivors)}`,
  );
}, SURVIVOR_GRACE_MS + 5_000);

/** Everything every command of every project printed in this test file: searched for planted secrets. */
export const printed: string[] = [];

/** A copy of a project in a git-ignored folder of this repository, where node_modules resolves. */
function copyProject(from: string, files: readonly string[] = ["."]): string {
  const workRoot = join(root, ".e2e-work");
  mkdirSync(workRoot, { recursive: true });
  const dir = mkdtempSync(join(workRoot, "project-"));
  for (const file of files) cpSync(join(from, file), join(dir, file), { recursive: true });
  return dir;
}

/**
 * A copy of a Pulumi project with its own hermetic Pulumi environment. The copy lives in a git-ignored
 * folder of this repository, so that node_modules resolves @pulumi/pulumi and @service/pulumi as in a
 * user's repo. Copy, backend and PULUMI_HOME are removed when the test file ends.
 */
export function pulumiProject(options: ProjectOptions) {
  const cli = findEngine();
  if (!cli) throw new Error(ENGINE_MISSING_REASON);
  const dir = options.at ?? copyProject(options.from!, options.files);
  const backend = options.backend ?? mkdtempSync(join(tmpdir(), "pulumi-backend-"));
  const home = mkdtempSync(join(tmpdir(), "pulumi-home-"));
  leftovers.push(home);
  if (!options.at) leftovers.push(dir);
  if (!options.backend) leftovers.push(backend);
  const env: NodeJS.ProcessEnv = {
    ...hermeticEnvironment(cli, home, backend),
    ...options.env,
    [PROCESS_MARK]: processMark,
  };
  const args = (command: readonly string[]) => [...command, "--non-interactive", "--color", "never"];

  /**
   * Runs one command to its end; `allowFailure` returns a failed result instead of throwing with its
   * output. Asynchronous: the sandbox usually runs in this very process and must go on answering.
   */
  async function run(
    command: readonly string[],
    extra: { allowFailure?: boolean } = {},
  ): Promise<CommandResult> {
    const child = spawn(cli!, args(command), { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    const [stdout, stderr] = [child.stdout, child.stderr].map((stream) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      return chunks;
    }) as [Buffer[], Buffer[]];
    const status = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    });
    const out: CommandResult = {
      status,
      stdout: Buffer.concat(stdout).toString("utf8"),
      stderr: Buffer.concat(stderr).toString("utf8"),
      output: Buffer.concat([...stdout, ...stderr]).toString("utf8"),
    };
    printed.push(out.output);
    if (!extra.allowFailure && out.status !== 0) {
      throw new Error(`\`pulumi ${command.join(" ")}\` exited ${out.status}:\n${out.output}`);
    }
    return out;
  }

  return {
    dir,
    backend,
    env,
    run,
    /** Starts a command without waiting for it (to interrupt it). */
    start(command: readonly string[]): ChildProcess {
      return spawn(cli!, args(command), { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    },
    /** `pulumi config set [--secret] key value` on the selected stack. */
    config: (key: string, value: string, secret = false) =>
      run(["config", "set", ...(secret ? ["--secret"] : []), key, value]),
    /** `pulumi stack export`: the checkpoint, secrets encrypted by the passphrase provider. */
    exported: async (): Promise<Checkpoint> =>
      JSON.parse((await run(["stack", "export"])).stdout) as Checkpoint,
    /** The checkpoint file itself, as the file backend stores it. */
    checkpointFile(project: string, stack: string): string {
      return readFileSync(join(backend, ".pulumi/stacks", project, `${stack}.json`), "utf8");
    },
  };
}

export type PulumiProject = ReturnType<typeof pulumiProject>;

export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs?: Record<string, any>;
  readonly outputs?: Record<string, any>;
  readonly parent?: string;
  readonly initErrors?: string[];
}

export interface Checkpoint {
  readonly deployment: {
    readonly resources?: StateResource[];
    readonly pending_operations?: { resource: StateResource; type: string }[];
  };
}

/** The Webhook resources of a checkpoint: dynamic ones and the provider plugin's. */
export function webhooksIn(checkpoint: Checkpoint): StateResource[] {
  const types = [webhook.token, webhook.pluginToken];
  return (checkpoint.deployment.resources ?? []).filter((r) => types.includes(r.type));
}

/** Pulumi's own program folder for these tests. */
export const PROGRAM_DIR = join(__dirname, "../e2e/program");

/** A stack trace's line, or a source position, in anything printed: never shown unless SERVICE_DEBUG asks. */
export const STACK_TRACE = /^\s+at \S|\.(ts|js|mjs|cjs):\d+/m;

/**
 * The last Diagnostics section of a command's output (an `up` prints its preview's first), by resource
 * (`<type> (<name>)`): each message the engine shows for it, its continuation lines joined to it. A
 * failure reported once is one message.
 */
export function diagnosticsOf(output: string): Map<string, string[]> {
  const byResource = new Map<string, string[]>();
  const sections = [...output.matchAll(/^Diagnostics:\n([\s\S]*?)(?=^\S|(?![\s\S]))/gm)];
  const section = sections.at(-1)?.[1] ?? "";
  let messages: string[] | undefined;
  for (const line of section.split("\n")) {
    const resource = /^ {2}(\S.*):$/.exec(line)?.[1];
    if (resource !== undefined) {
      messages = byResource.get(resource) ?? [];
      byResource.set(resource, messages);
    } else if (/^ {4}\S/.test(line)) messages?.push(line.trim());
    else if (/^ {5,}\S/.test(line) && messages?.length) messages[messages.length - 1] += `\n${line.trim()}`;
  }
  return byResource;
}
