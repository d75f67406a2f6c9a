/**
 * `npm run schema`: writes schema.json, the provider plugin's Pulumi package schema, from the registry
 * (schema.ts). Run it after changing a resource's inputs, outputs, secrets or TSDoc; a unit test
 * (test/schema.json.test.ts) fails until the file matches. `--check` only compares, and exits 1 on a difference.
 */
import { compiledGenerator, root, writeGenerated } from "./generated-file.mts";

const { SCHEMA_FILE, schemaText } = compiledGenerator<typeof import("./schema.ts")>("schema.js");
writeGenerated(SCHEMA_FILE, schemaText(root), "the registry", "npm run schema");
