import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serviceProvider } from "../provider/plugin/provider";
import { resolve } from "../provider/settings/resolve";
import { generateSchema, SCHEMA_FILE, schemaText } from "../tools/codegen/schema";

/**
 * schema.json, the provider plugin's Pulumi package schema, is generated from the registry and checked
 * in: these fail when the two part, or when the plugin serves another.
 */
const root = join(__dirname, "..");
const checkedIn = () => readFileSync(join(root, SCHEMA_FILE), "utf8");

describe("the provider plugin's schema", () => {
  it("is checked in as the registry generates it", () => {
    if (checkedIn() !== schemaText(root)) {
      throw new Error(`${SCHEMA_FILE} differs from what the registry generates: run \`npm run schema\`.`);
    }
  });

  it("is what the plugin serves", async () => {
    const provider = serviceProvider({
      oldInputs: () => undefined,
      showDiff: () => {},
      warn: () => {},
      settings: () => resolve({}),
    });
    expect(await provider.getSchema!()).toBe(checkedIn());
    expect(provider.version).toBe(generateSchema(root).version);
  });
});
