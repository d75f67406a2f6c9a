/**
 * Files of this package that the provider plugin reads at run time, found by the package's own name so
 * that the same code works from the sources, from dist/ and from a consumer's node_modules.
 */
import { readFileSync } from "node:fs";

const PACKAGE_NAME = "@service/pulumi";

/** The text of one of this package's files that package.json `exports` lists, such as `schema.json`. */
export function packageFile(file: "package.json" | "schema.json"): string {
  return readFileSync(require.resolve(`${PACKAGE_NAME}/${file}`), "utf8");
}

/** This package's version, which the plugin reports and its schema carries. */
export function packageVersion(): string {
  return (JSON.parse(packageFile("package.json")) as { version: string }).version;
}
