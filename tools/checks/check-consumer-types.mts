/**
 * `npm run test:consumer-types`: a consumer that imports every entry point of the packed package must
 * compile without skipLibCheck, under TypeScript 5.x (what most infra repos have; override with
 * --typescript <range>) and both module resolutions a Pulumi project meets:
 *   - node16, as in examples/aws-cloudfront;
 *   - node10 with Pulumi's TypeScript template options (module commonjs, no esModuleInterop).
 * When it fails on zod's declarations, it lists the public declaration files of this package that import
 * zod, and the declarations in them that name zod's types: the ones to change.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import ts from "typescript";
import {
  newProjectDir,
  npmInstall,
  packInto,
  removeUnlessKept,
  repoRoot,
  report,
  type Step,
  step,
} from "./consumer-project.mts";

const { values } = parseArgs({
  options: { typescript: { type: "string", default: "~5.9.0" }, keep: { type: "boolean" } },
});

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const entryPoints = Object.entries(manifest.exports as Record<string, string | { types: string }>)
  .filter(([subpath, target]) => subpath !== "./package.json" && typeof target === "object")
  .map(([subpath, target]) => ({
    specifier: `${manifest.name}${subpath.slice(1)}`,
    types: (target as { types: string }).types,
  }));

const COMMON = { strict: true, noEmit: true, target: "ES2022", lib: ["ES2022"], types: ["node"] };
const CONFIGS: Record<string, object> = {
  "node16 resolution": { ...COMMON, module: "node16", moduleResolution: "node16" },
  "node10 resolution, Pulumi template options": {
    ...COMMON,
    target: "es2020",
    lib: ["es2020"],
    module: "commonjs",
    moduleResolution: "node",
  },
};

/** error TS lines counted per file, the largest first. */
function errorsByFile(output: string): string {
  const counts = new Map<string, number>();
  for (const match of output.matchAll(/^(.+?)\(\d+,\d+\): error TS\d+/gm)) {
    counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([file, n]) => `${n} errors in ${file}`);
  const first = /^.+error TS\d+:.*$/m.exec(output)?.[0];
  return [...lines, ...(first ? [`first: ${first}`] : [])].join("\n");
}

/**
 * @pulumi/policy 1.21's own index.d.ts imports a name its proxy.d.ts does not export, so any consumer
 * without skipLibCheck fails on it, with or without this package. Those errors are reported but do not
 * fail the check; every other error does.
 */
const UPSTREAM = /^node_modules\/@pulumi\/policy\//;

function upstreamExcused(tsc: Step): Step {
  const errors = [...tsc.output.matchAll(/^(.+?)\(\d+,\d+\): error TS\d+/gm)].map((m) => m[1]!);
  const ours = errors.filter((file) => !UPSTREAM.test(file));
  const note =
    errors.length > ours.length
      ? `\n(${errors.length - ours.length} errors are @pulumi/policy's own declarations, which fail without skipLibCheck whatever imports them; not counted)`
      : "";
  return { ...tsc, ok: ours.length === 0, output: `${errorsByFile(tsc.output)}${note}` };
}

/** How a consumer reaches each of the package's declaration files: the chain of imports from an entry. */
function importChains(packageDir: string): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  const queue: string[] = [];
  for (const entry of entryPoints) {
    const file = resolve(packageDir, entry.types);
    if (!chains.has(file)) {
      chains.set(file, [entry.specifier]);
      queue.push(file);
    }
  }
  while (queue.length > 0) {
    const file = queue.shift()!;
    const text = readFileSync(file, "utf8");
    for (const [, specifier] of text.matchAll(/(?:from\s+|import\()\s*"(\.[^"]*)"/g)) {
      const base = resolve(dirname(file), specifier!);
      const target = [`${base}.d.ts`, base.replace(/\.js$/, ".d.ts"), join(base, "index.d.ts")].find((f) => {
        try {
          return readFileSync(f) !== undefined;
        } catch {
          return false;
        }
      });
      if (target && !chains.has(target)) {
        chains.set(target, [...chains.get(file)!, relative(packageDir, target)]);
        queue.push(target);
      }
    }
  }
  return chains;
}

const KINDS: [(node: ts.Node) => boolean, string][] = [
  [ts.isVariableStatement, "const"],
  [ts.isFunctionDeclaration, "function"],
  [ts.isClassDeclaration, "class"],
  [ts.isInterfaceDeclaration, "interface"],
  [ts.isTypeAliasDeclaration, "type"],
];

/**
 * For each declaration file of the package that a consumer loads and that imports zod: how it is reached,
 * and the declarations in it (with class or interface members) that name a zod type. One such file is
 * enough to make a consumer load, and check, all of zod's declarations.
 */
function zodReferences(packageDir: string): string[] {
  const chains = importChains(packageDir);
  const roots = entryPoints.map((e) => resolve(packageDir, e.types));
  const program = ts.createProgram(roots, { noEmit: true, module: ts.ModuleKind.Node16 });
  const checker = program.getTypeChecker();
  const exported = new Set<string>();
  for (const root of roots) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(root)!);
    for (const e of symbol ? checker.getExportsOfModule(symbol) : []) {
      const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      for (const d of target.declarations ?? []) exported.add(`${d.getSourceFile().fileName}#${e.name}`);
    }
  }
  const lines: string[] = [];
  for (const [fileName, chain] of chains) {
    const file = program.getSourceFile(fileName);
    if (!file) continue;
    const zodNames = new Set<string>();
    for (const statement of file.statements) {
      if (
        !ts.isImportDeclaration(statement) ||
        (statement.moduleSpecifier as ts.StringLiteral).text !== "zod"
      )
        continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const el of bindings.elements) zodNames.add(el.name.text);
      if (bindings && ts.isNamespaceImport(bindings)) zodNames.add(bindings.name.text);
    }
    if (zodNames.size === 0) continue;
    const mentions = (node: ts.Node): boolean =>
      (ts.isIdentifier(node) && zodNames.has(node.text) && !ts.isImportSpecifier(node.parent)) ||
      ts.forEachChild(node, mentions) === true;
    lines.push(`${relative(packageDir, fileName)}   (reached: ${chain.join(" -> ")})`);
    for (const statement of file.statements) {
      if (ts.isImportDeclaration(statement) || !mentions(statement)) continue;
      const kind = KINDS.find(([is]) => is(statement))?.[1] ?? "statement";
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => d.name.getText(file))
        : [(statement as ts.DeclarationStatement).name?.getText(file) ?? "?"];
      const details: string[] = [];
      if (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) {
        if ((statement.heritageClauses ?? []).some(mentions)) details.push("extends a zod type");
        for (const member of statement.members as ts.NodeArray<ts.ClassElement | ts.TypeElement>) {
          if (mentions(member)) details.push(`member ${member.name?.getText(file) ?? "[index]"}`);
        }
      }
      for (const name of names) {
        const visibility = exported.has(`${fileName}#${name}`)
          ? "exported by an entry point"
          : "not exported";
        lines.push(`    ${kind} ${name}: ${visibility}${details.length ? `; ${details.join(", ")}` : ""}`);
      }
    }
  }
  return lines;
}

function main(): boolean {
  const dir = newProjectDir("service-consumer-types");
  try {
    const tarball = packInto(dir);
    const versionOf = (pkg: string) =>
      JSON.parse(readFileSync(join(repoRoot, "node_modules", pkg, "package.json"), "utf8")).version;
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "consumer-types",
        private: true,
        dependencies: {
          [manifest.name]: `file:${tarball}`,
          "@pulumi/pulumi": versionOf("@pulumi/pulumi"),
          // The optional peer of @service/pulumi/policy: a consumer of that entry point installs it.
          "@pulumi/policy": versionOf("@pulumi/policy"),
          "@types/node": "^24.0.0",
          typescript: values.typescript,
        },
      }),
    );
    writeFileSync(
      join(dir, "index.ts"),
      `${entryPoints.map((e, i) => `import * as entry${i} from "${e.specifier}";`).join("\n")}\n` +
        `export const entries = [${entryPoints.map((_, i) => `entry${i}`).join(", ")}];\n`,
    );
    const steps: [string, Step][] = [];
    const install = npmInstall(dir);
    steps.push([`npm install (TypeScript ${values.typescript})`, install]);
    let zodFailed = false;
    if (install.ok) {
      for (const [name, compilerOptions] of Object.entries(CONFIGS)) {
        const config = `tsconfig.${name.split(" ")[0]}.json`;
        writeFileSync(join(dir, config), JSON.stringify({ compilerOptions, files: ["index.ts"] }));
        const tsc = step(process.execPath, ["node_modules/typescript/bin/tsc", "-p", config], dir);
        zodFailed ||= /node_modules\/zod\//.test(tsc.output);
        steps.push([`tsc, ${name}, no skipLibCheck`, upstreamExcused(tsc)]);
      }
    }
    const ok = report(`A strict consumer of every entry point (${dir})`, steps);
    if (zodFailed) {
      const packageDir = join(dir, "node_modules", manifest.name);
      process.stdout.write(
        "zod's own declarations fail to compile in this consumer, and this package makes the consumer load\n" +
          "them: these declaration files of the package import zod, for the declarations listed under each.\n" +
          `${zodReferences(packageDir)
            .map((line) => `  ${line}`)
            .join("\n")}\n`,
      );
    }
    return ok;
  } finally {
    removeUnlessKept(dir);
  }
}

process.exitCode = main() ? 0 : 1;
