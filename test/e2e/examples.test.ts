/**
 * The minimal infra repos of examples/ (TypeScript on the dynamic resources, Python on the provider
 * plugin), each copied alone into a new folder outside this repository and installed as its README says:
 * the tarball `npm pack` makes, and for Python a virtualenv from requirements.txt. Then, on its `dev` stack
 * under the real engine, against one sandbox: `pulumi up`, an unchanged `pulumi preview
 * --expect-no-changes` and `pulumi destroy`.
 *
 * The test sets the two secrets as the README does, and edits in Pulumi.dev.yaml only what points the
 * stack at this sandbox rather than at one on 127.0.0.1:8787: the sandbox's URL, and the origin that
 * stands in for https://hooks.local.test with the folder it serves.
 */
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { npmInstallInBackground, packInto, stepInBackground } from "../../tools/checks/consumer-project.mts";
import { PYTHON_PULUMI_VERSION } from "../../tools/engine/pulumi-engine.mts";
import { describeUnderEngine, pulumiProject } from "../helpers/engine";
import { pathOfACopyAlone, pointDevStackAt, runDevStack } from "../helpers/examples";
import { expectOneActivePerResource, useStage } from "../helpers/stage";

const examplesDir = join(__dirname, "../../examples");

/** Each example, and what its README has a user run after `npm install ./<tarball>`. */
const examples = {
  typescript: [],
  python: [
    ["python3", ["-m", "venv", "venv"]],
    ["venv/bin/pip", ["install", "-r", "requirements.txt"]],
  ],
} satisfies Record<string, [string, string[]][]>;
type Example = keyof typeof examples;

/** Copies an example alone into `dir` with the tarball, and installs it as its README says. */
async function install(example: Example, dir: string, tarballPath: string, tarball: string): Promise<void> {
  cpSync(join(examplesDir, example), dir, { recursive: true });
  cpSync(tarballPath, join(dir, tarball));
  let result = await npmInstallInBackground(dir, [`./${tarball}`]);
  for (const [command, args] of examples[example]) {
    if (result.ok) result = await stepInBackground(command, args, dir);
  }
  if (!result.ok) throw new Error(`Installing examples/${example} in ${dir} failed:\n${result.output}`);
}

describeUnderEngine(
  "the examples, each copied alone into a new folder, under the real engine",
  { tools: ["python3"] },
  () => {
    let work: string;
    const dirs = {} as Record<Example, string>;
    const installs = {} as Record<Example, Promise<void>>;
    // Both install side by side; the TypeScript scenario starts once its own install is done, while the
    // Python one (npm, a virtualenv, pip) goes on.
    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), "service-examples-"));
      const tarball = packInto(work);
      for (const example of Object.keys(examples) as Example[]) {
        dirs[example] = join(work, example);
        installs[example] = install(example, dirs[example], join(work, tarball), tarball);
        // Awaited by its scenario; this only keeps a failure from counting as unhandled before that.
        installs[example].catch(() => {});
      }
      return installs.typescript;
    }, 240_000);
    afterAll(async () => {
      await Promise.allSettled(Object.values(installs));
      // Two node_modules and a virtualenv: tens of thousands of files, which a busy disk takes a while to drop.
      if (work) await rm(work, { recursive: true, force: true });
    }, 120_000);
    const stages = useStage();

    it("the Python example pins the Pulumi SDK that goes with the CLI it runs under", () => {
      const requirements = readFileSync(join(examplesDir, "python/requirements.txt"), "utf8");
      expect(requirements.split("\n")).toContain(`pulumi==${PYTHON_PULUMI_VERSION}`);
    });

    it.each(Object.keys(examples) as Example[])(
      "%s: up, an unchanged preview with no API call, and destroy, on its dev stack",
      async (example) => {
        const stage = stages.current;
        const dir = dirs[example];
        await installs[example];
        const name = /^name: (\S+)$/m.exec(readFileSync(join(dir, "Pulumi.yaml"), "utf8"))![1]!;
        pointDevStackAt(stage, dir, name);

        const project = pulumiProject({ at: dir, env: { PATH: pathOfACopyAlone() } });
        await runDevStack(stage, project, name, () => expectOneActivePerResource(stage, [project]));
      },
    );
  },
);
