/**
 * `npm run test:example`: examples/aws-cloudfront copied alone into an empty folder outside this
 * repository, as its README tells a platform team to do, must install (this package from its tarball,
 * everything else from the registry), type-check with its own tsconfig and TypeScript, and compile under
 * the TypeScript loader that `pulumi up` uses for it (Pulumi.yaml: typescript: true).
 *
 * Too slow for `npm test` (about a minute, mostly installing @pulumi/aws), so CI runs it on its own.
 * `--keep` leaves the folder for a look.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  newProjectDir,
  npmInstall,
  packInto,
  removeUnlessKept,
  report,
  type Step,
  step,
} from "./consumer-project.mts";

const example = join(import.meta.dirname, "../../examples/aws-cloudfront");

/**
 * What @pulumi/pulumi's cmd/run does for `typescript: true`: its own ts-node (or the project's), the
 * project's TypeScript, the project's tsconfig.json under Pulumi's defaults. Compiling both files reports
 * the type errors `pulumi up` would stop on, without running the program.
 */
const PULUMI_LOADER_PROBE = `
const path = require("node:path");
const fs = require("node:fs");
const pulumiDir = path.resolve("node_modules/@pulumi/pulumi");
const tsutils = require(path.join(pulumiDir, "tsutils.js"));
const fromPulumi = require("node:module").createRequire(path.join(pulumiDir, "tsutils.js"));
const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
const compilerOptions = tsutils.loadTypeScriptCompilerOptions("tsconfig.json");
const service = fromPulumi(tsnodeRequire).register({
  compiler: typescriptRequire,
  transpileOnly: compilerOptions.noCheck,
  project: "tsconfig.json",
  skipProject: false,
  compilerOptions: { target: "ES2020", module: "nodenext", moduleResolution: "nodenext", sourceMap: "true", ...compilerOptions },
});
for (const file of ["index.ts", "receiver.ts"]) service.compile(fs.readFileSync(file, "utf8"), path.resolve(file));
const ts = fromPulumi(typescriptRequire);
process.stdout.write("compiled with TypeScript " + ts.version + " and " + path.basename(tsnodeRequire) + "\\n");
`;

function main(): boolean {
  const dir = newProjectDir("service-example");
  try {
    cpSync(example, dir, {
      recursive: true,
      filter: (source) => !/[\\/](node_modules|bin)$/.test(source),
    });
    const tarball = packInto(dir);
    const install = npmInstall(dir, [`./${tarball}`]);
    const steps: [string, Step][] = [[`npm install ./${tarball} (and the registry's packages)`, install]];
    if (install.ok) {
      const dependency = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies[
        "@service/pulumi"
      ] as string;
      steps.push([
        `package.json now depends on file:${tarball}`,
        {
          ok: dependency === `file:${tarball}`,
          output: `"@service/pulumi": "${dependency}"`,
          seconds: 0,
        },
      ]);
      steps.push([
        "npm run typecheck (its own tsconfig.json and TypeScript)",
        step("npm", ["run", "typecheck"], dir),
      ]);
      writeFileSync(join(dir, "pulumi-loader-probe.cjs"), PULUMI_LOADER_PROBE);
      steps.push([
        "compiles under Pulumi's TypeScript loader (typescript: true)",
        step(process.execPath, ["pulumi-loader-probe.cjs"], dir),
      ]);
    }
    return report(`examples/aws-cloudfront copied alone into ${dir}`, steps);
  } finally {
    removeUnlessKept(dir);
  }
}

process.exitCode = main() ? 0 : 1;
