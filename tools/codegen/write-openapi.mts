/**
 * `npm run openapi`: writes openapi.json, the OpenAPI 3.1 document of the Service API, from the route
 * table and the schemas of contract/ (openapi.ts). Run it after changing a route or a request or response
 * schema; a unit test (test/tools/codegen/openapi.test.ts) fails until the file matches. `--check` only
 * compares, and exits 1 on a difference.
 */
import { compiledGenerator, root, writeGenerated } from "./generated-file.mts";

const { OPENAPI_FILE, openApiText } = compiledGenerator<typeof import("./openapi.ts")>("openapi.js");
writeGenerated(OPENAPI_FILE, openApiText(root), "the route table and the schemas", "npm run openapi");
