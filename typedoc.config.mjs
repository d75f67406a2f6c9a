// @ts-check
/**
 * `npm run docs`: the API reference of what a user can import, built by TypeDoc into dist/docs.
 *
 * The entry points are read from package.json's exports map (each subpath's declaration file, mapped back
 * to its TypeScript source), so a new subpath is documented, and checked, without touching this file.
 * Every exported symbol and every public member must carry TSDoc: TypeDoc's notDocumented validation is
 * an error here.
 */
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

/** "./dist/provider/client/index.d.ts" -> "provider/client/index.ts" (tsconfig.build.json: rootDir "."). */
const entryPoints = Object.entries(manifest.exports)
  .filter(([subpath, target]) => subpath !== "./package.json" && typeof target === "object")
  .map(([, target]) => target.types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts"));

/**
 * "git+https://github.com/o/r.git" -> "https://github.com/o/r": the repository package.json names. Source
 * links point there rather than at a git remote, which a fresh clone, a fork or a CI checkout may lack or
 * name differently; `{gitRevision}` is the commit the docs were built from, so a link shows the very code
 * it documents.
 */
const repository = manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/** @type {Partial<import("typedoc").TypeDocOptions>} */
const config = {
  entryPoints,
  tsconfig: "tsconfig.build.json",
  out: "dist/docs",
  name: manifest.name,
  readme: "none",
  excludePrivate: true,
  excludeInternal: true,
  sourceLinkTemplate: `${repository}/blob/{gitRevision}/{path}#L{line}`,
  // Inherited TSDoc (isInstance, from @pulumi/pulumi) links to Pulumi's classes: send readers to its reference.
  externalSymbolLinkMappings: {
    "@pulumi/pulumi": {
      CustomResource: "https://www.pulumi.com/docs/reference/pkg/nodejs/pulumi/pulumi/",
      ComponentResource: "https://www.pulumi.com/docs/reference/pkg/nodejs/pulumi/pulumi/",
    },
  },
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  treatValidationWarningsAsErrors: true,
};

export default config;
