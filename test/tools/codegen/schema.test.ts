import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOMAIN_COMPONENT_TYPE } from "../../../provider/domain/declaration";
import * as registry from "../../../provider/registry";
import { generateSchema } from "../../../tools/codegen/schema";

/**
 * schema.json, the provider plugin's Pulumi package schema, is generated from the registry: its types
 * from the zod schemas, its descriptions from the TSDoc (test/schema.json.test.ts checks the file).
 */
const root = join(__dirname, "../../..");

describe("the provider plugin's schema", () => {
  const schema = generateSchema(root);

  it("has the Python SDK refuse, at pip install, a Python older than the Pulumi SDK's 3.10 (regression: it said 3.9)", () => {
    const pyproject = readFileSync(join(root, "sdk/python/pyproject.toml"), "utf8");
    expect(pyproject).toMatch(/^\s*requires-python = ">=3\.10"$/m);
  });

  it("lists every declared resource under its plugin token, with its secrets marked, and the Domain component", () => {
    const declared = Object.values(registry);
    expect(Object.keys(schema.resources).sort()).toEqual(
      [...declared.map((d) => d.pluginToken), DOMAIN_COMPONENT_TYPE].sort(),
    );
    for (const d of declared) {
      const spec = schema.resources[d.pluginToken] as {
        inputProperties: Record<string, { secret?: boolean }>;
        properties: Record<string, { secret?: boolean }>;
      };
      const secretInputs = Object.keys(spec.inputProperties).filter((k) => spec.inputProperties[k]!.secret);
      expect(secretInputs.sort()).toEqual([...d.secrets.inputs].sort());
      for (const [key, property] of Object.entries(spec.properties)) {
        if ([...d.secrets.inputs, ...d.secrets.outputs].includes(key)) expect(property.secret).toBe(true);
      }
    }
    expect(schema.resources[DOMAIN_COMPONENT_TYPE]).toMatchObject({ isComponent: true });
    expect(schema.config.variables.token).toMatchObject({ secret: true });
  });

  it("describes every resource, property and type", () => {
    const undescribed: string[] = [];
    const visit = (path: string, value: unknown) => {
      if (typeof value !== "object" || value === null) return;
      const record = value as Record<string, unknown>;
      if (("type" in record || "$ref" in record) && !path.endsWith("/items") && !record.description) {
        undescribed.push(path);
      }
      for (const [key, child] of Object.entries(record)) visit(`${path}/${key}`, child);
    };
    for (const [token, spec] of Object.entries({ ...schema.resources, ...schema.types })) {
      if (!(spec as { description?: string }).description) undescribed.push(token);
      visit(token, spec);
    }
    expect(undescribed).toEqual([]);
  });

  it("types the configuration: a number, an object of strings, an enum, each default and environment variable", () => {
    expect(schema.config.variables).toMatchObject({
      retryBudgetSeconds: {
        type: "number",
        default: 60,
        defaultInfo: { environment: ["SERVICE_RETRY_BUDGET_SECONDS"] },
      },
      hostOverrides: {
        type: "object",
        additionalProperties: { type: "string" },
        defaultInfo: { environment: ["SERVICE_HOST_OVERRIDES"] },
      },
      acceptLanguage: { $ref: "#/types/service:index:AcceptLanguage", default: "en" },
      baseUrl: {
        type: "string",
        default: "http://127.0.0.1:8787",
        defaultInfo: { environment: ["SERVICE_BASE_URL"] },
      },
      token: { type: "string", secret: true, defaultInfo: { environment: ["SERVICE_API_TOKEN"] } },
    });
    // The provider's inputs have the same types, and no default the SDKs would fill in in the program.
    for (const [key, input] of Object.entries(schema.provider.inputProperties)) {
      const { default: _d, defaultInfo: _e, ...variable } = schema.config.variables[key]!;
      expect(input).toEqual(variable);
    }
  });

  it("has enums for the API version and the display language, which every input of theirs refers to", () => {
    const values = (token: string) =>
      (schema.types[token] as { enum?: { value: string }[] }).enum?.map((v) => v.value);
    expect(values("service:index:ApiVersion")).toEqual(["2.0", "1.4"]);
    expect(values("service:index:AcceptLanguage")).toEqual(["en", "ja"]);
    const refs = Object.values(schema.resources).flatMap((r) =>
      Object.entries((r as { inputProperties: Record<string, { $ref?: string }> }).inputProperties)
        .filter(([key]) => key === "apiVersion" || key === "acceptLanguage")
        .map(([key, spec]) => [key, spec.$ref]),
    );
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const [key, ref] of refs) {
      expect(ref).toBe(`#/types/service:index:${key === "apiVersion" ? "ApiVersion" : "AcceptLanguage"}`);
    }
  });

  it("gives each custom resource stateInputs, its state's properties, and the component none", () => {
    for (const d of Object.values(registry)) {
      const spec = schema.resources[d.pluginToken] as {
        properties: Record<string, unknown>;
        stateInputs?: { type: string; properties: Record<string, unknown> };
      };
      expect(spec.stateInputs).toMatchObject({ type: "object", properties: spec.properties });
    }
    expect(schema.resources[DOMAIN_COMPONENT_TYPE]).not.toHaveProperty("stateInputs");
  });

  it("names each language's package", () => {
    expect(schema.language).toMatchObject({
      python: { packageName: "service_pulumi" },
      go: { importBasePath: "github.com/service-pulumi/service-pulumi/sdk/go/service" },
      csharp: { rootNamespace: "ServicePulumi" },
      nodejs: { packageName: "@service/pulumi-sdk" },
    });
  });
});
