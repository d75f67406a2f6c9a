/**
 * Issue 41, under the real engine: a library is a guest in its user's processes. A program with a plain
 * dynamic provider of its own beside a Domain and a Webhook (test/e2e/globals-program) records what could
 * change process-wide (test/helpers/process-globals.cjs) before and after the package runs, in the program
 * and in the dynamic-provider host that serves both providers, through preview, up, an unchanged up and
 * destroy. In each process, every snapshot equals the first, which was taken before the package was loaded
 * there, and a later one was taken after it had run.
 *
 * In the host the first snapshot is the plain provider's first call, made before the host loads the
 * package: the package's resources depend on "probe-before", so the engine sends their calls only once
 * that one's are answered, and "probe-after" depends on them, so its calls come after theirs (a destroy
 * deletes in the reverse order, and its first delete is "probe-after"'s). One host process is compared
 * with itself, so nothing of another process (another Node, another `pulumi`) can make it differ.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeUnderEngine } from "../helpers/engine";
import { domainStack, useStage } from "../helpers/stage";

const PROGRAM = join(__dirname, "globals-program");
const HELPER = join(__dirname, "../helpers/process-globals.cjs");
const { differences } = require(HELPER) as {
  differences(before: unknown, after: unknown): string[];
};

interface Line {
  readonly where: string;
  readonly pid: number;
  readonly loaded: boolean;
  readonly snapshot: unknown;
}

describeUnderEngine("under the real engine, the package beside a plain dynamic provider", () => {
  const stages = useStage();

  it("changes no global of the program or of the dynamic-provider host, on preview, up and destroy", async () => {
    const stage = stages.current;
    const project = await domainStack(stage, {}, { from: PROGRAM });
    // In the project's copy, which is removed when the file ends.
    const log = join(project.dir, "globals.jsonl");
    await project.config("globalsLog", log);
    await project.config("globalsHelper", HELPER);

    const commands = [
      ["up", "--yes"],
      ["up", "--yes"],
      ["destroy", "--yes"],
    ];
    for (const command of commands) await project.run(command);

    const lines = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
    // What each process recorded, in order: a program run, or a host.
    const byProcess = new Map<string, Line[]>();
    for (const line of lines) {
      const key = `${line.where.split(" ")[0]} ${line.pid}`;
      byProcess.set(key, [...(byProcess.get(key) ?? []), line]);
    }
    const programs = [...byProcess].filter(([key]) => key.startsWith("program"));
    const hosts = [...byProcess].filter(([key]) => key.startsWith("host"));
    // A preview and an update per up, and the destroy: each ran the program or started a host.
    expect(programs.length).toBeGreaterThanOrEqual(4);
    expect(hosts.length).toBeGreaterThanOrEqual(5);
    for (const [key, seen] of [...programs, ...hosts]) {
      const [first, ...later] = seen;
      const where = `${key}: ${seen.map((line) => `${line.where}${line.loaded ? " (package loaded)" : ""}`).join(", ")}`;
      // The first snapshot is of the process as it was before the package: else it proves nothing.
      expect(first!.loaded, where).toBe(false);
      expect(
        later.some((line) => line.loaded),
        where,
      ).toBe(true);
      for (const line of later)
        expect(differences(first!.snapshot, line.snapshot), `${where}: ${line.where}`).toEqual([]);
    }
    // The destroy's host ran the package's deletes between the plain provider's two.
    const wheres = hosts.map(([, seen]) => seen.map((line) => line.where).join(", "));
    expect(wheres).toContain("host probe-after delete, host probe-before delete");
  });
});
