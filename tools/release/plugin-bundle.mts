/**
 * The provider plugin as one CommonJS file, with @pulumi/pulumi, grpc-js, undici and zod inside: the script
 * of the plugin binary. A single-executable application's `require` loads Node's own modules only, so
 * everything the plugin loads by a path found at run time must be made static here. Two modules do that
 * (each rewrite fails the build when its source changed, rather than yield a binary that fails later):
 * - provider/plugin/package-files.ts reads package.json and schema.json of the installed package: the
 *   bundle carries their text instead;
 * - provider/plugin/server-hooks.ts `fromSdk` loads modules from @pulumi/pulumi's own folder: the bundle
 *   requires each module named in a `fromSdk` call of the plugin's sources, resolved from that folder now.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { type Plugin, rolldown } from "rolldown";
import { bundledPackages, type ShippedPackage } from "./sbom.mts";

const root = join(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);

/** One source text the bundle replaces, found by its file and the exact code it replaces. */
interface Rewrite {
  readonly file: string;
  readonly code: RegExp;
  replacement(): string;
}

/** The modules the plugin's sources name in `fromSdk("…")` calls. */
function sdkModules(): string[] {
  const dir = join(root, "provider/plugin");
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    for (const call of readFileSync(join(dir, file), "utf8").matchAll(/fromSdk<[\s\S]*?>\("([^"]+)"\)/g)) {
      names.add(call[1]!);
    }
  }
  return [...names].sort();
}

const REWRITES: readonly Rewrite[] = [
  {
    file: "provider/plugin/package-files.ts",
    code: /readFileSync\(require\.resolve\(`\$\{PACKAGE_NAME\}\/\$\{file\}`\), "utf8"\)/,
    replacement: () => {
      const files = Object.fromEntries(
        ["package.json", "schema.json"].map((name) => [name, readFileSync(join(root, name), "utf8")]),
      );
      return `(${JSON.stringify(files)})[file]`;
    },
  },
  {
    file: "provider/plugin/server-hooks.ts",
    code: /const sdk = dirname\(require\.resolve\("@pulumi\/pulumi\/package\.json"\)\);\s*return require\(require\.resolve\(module, \{ paths: \[sdk\] \}\)\);/,
    replacement: () => {
      const sdk = dirname(require.resolve("@pulumi/pulumi/package.json"));
      const loaders = sdkModules().map(
        (name) =>
          `${JSON.stringify(name)}: () => require(${JSON.stringify(require.resolve(name, { paths: [sdk] }))})`,
      );
      return (
        `const load = ({ ${loaders.join(", ")} })[module];\n` +
        '  if (!load) throw new Error("the plugin binary bundles no " + module + ": add it to a fromSdk call");\n' +
        "  return load();"
      );
    },
  },
];

/** Applies REWRITES, and fails the build naming any whose code it did not find. */
function staticRequires(): Plugin {
  const applied = new Set<string>();
  return {
    name: "static-requires",
    transform(code, id) {
      const rewrite = REWRITES.find((r) => id.endsWith(r.file.split("/").join(sep)));
      if (!rewrite) return null;
      if (!rewrite.code.test(code)) return null;
      applied.add(rewrite.file);
      return { code: code.replace(rewrite.code, rewrite.replacement()) };
    },
    buildEnd() {
      const missed = REWRITES.filter((r) => !applied.has(r.file)).map((r) => r.file);
      if (missed.length > 0)
        throw new Error(
          `The plugin bundle could not make ${missed.join(" and ")} load statically: its code changed. ` +
            "Update REWRITES in tools/release/plugin-bundle.mts to match it.",
        );
    },
  };
}

/**
 * No TypeScript (half the bundle) in place of the `typescript` package: @pulumi/pulumi loads it
 * only to serialize a function's closure (a dynamic provider, a program's callback), which the plugin
 * never does. Should a later SDK load it on a path the plugin takes, the first use fails saying so.
 */
function withoutTypeScript(): Plugin {
  const stub = "\0plugin-binary:typescript";
  return {
    name: "without-typescript",
    resolveId: (id) => (id === "typescript" ? stub : null),
    load: (id) =>
      id === stub
        ? "module.exports = new Proxy({}, { get(_, key) { throw new Error(" +
          JSON.stringify(
            "The service plugin binary carries no TypeScript, which @pulumi/pulumi asked for (to serialize a function). Report this at https://github.com/service-pulumi/service-pulumi/issues, and use the plugin from the npm package meanwhile.",
          ) +
          "); } });"
        : null,
  };
}

/** Writes the plugin's single-file bundle to `file`; answers the npm packages it holds. */
export async function bundlePlugin(file: string): Promise<ShippedPackage[]> {
  const bundle = await rolldown({
    input: join(import.meta.dirname, "plugin-entry.ts"),
    platform: "node",
    cwd: root,
    tsconfig: join(root, "tsconfig.build.json"),
    // The S3 publisher is a TypeScript program's choice; the plugin never loads it.
    external: [/^@pulumi\/aws(\/|$)/],
    plugins: [staticRequires(), withoutTypeScript()],
    logLevel: "warn",
  });
  try {
    // Class names show in error messages (`error.name`): never let the bundler rename one.
    const { output } = await bundle.write({ file, format: "cjs", keepNames: true, codeSplitting: false });
    return bundledPackages(output[0].moduleIds);
  } finally {
    await bundle.close();
  }
}
