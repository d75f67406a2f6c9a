/**
 * The provider plugin's Pulumi package schema (schema.json), generated from the registry: every declared
 * resource under its plugin type token and the Domain component, their types from the zod schemas, their
 * descriptions from the TSDoc, their secrets from the declarations. `npm run schema` writes it; a unit test
 * fails when the file differs from what this generates.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { PLUGIN_PACKAGE } from "../../contract/pulumi-package";
import { DOMAIN_COMPONENT_TYPE } from "../../provider/domain/declaration";
import * as registry from "../../provider/registry";
import { pluginToken } from "../../provider/resource-kit/declaration";
import { schemaOf } from "../../provider/settings/schema-kit";
import { CONFIG_DESCRIPTION, SETTING_ROWS, type Setting } from "../../provider/settings/table";
import { type JsonSchema, type Properties, TypeCollector, type TypeSpec } from "./pulumi-types";
import { DOCUMENTED_FILES, DOMAIN_SHAPE, ENUMS, RESOURCE_SHAPES, type Shape } from "./schema-sources";
import { SourceDocs } from "./tsdoc";

/** The file the schema is written to and the plugin serves, at the package root. */
export const SCHEMA_FILE = "schema.json";

const jsonSchema = (schema: z.ZodObject, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;

/** `properties` with the members named in `secret` marked secret. */
function withSecrets(properties: Record<string, TypeSpec>, secret: Iterable<string>) {
  const marked = { ...properties };
  for (const key of secret) {
    const spec = marked[key];
    if (spec) marked[key] = { ...spec, secret: true };
  }
  return marked;
}

/**
 * A setting's description in the schema (and so in each SDK's docs): its meaning, then where it falls
 * back to when the stack leaves it out.
 */
function settingDescription(setting: Setting): string {
  const defaulted =
    setting.default === undefined
      ? undefined
      : setting.defaultNote
        ? `${setting.defaultNote} (${setting.default})`
        : String(setting.default);
  if (setting.env === undefined) return setting.description;
  return `${setting.description} Falls back to ${setting.env}${defaulted ? `, then ${defaulted}` : ""}.`;
}

/**
 * A setting with a stack config key as the provider's inputs describe it: its type from its zod schema,
 * checked against the table's `type`, which the readers go by.
 */
function settingInput(setting: Setting, types: TypeCollector): TypeSpec {
  const shape = z.toJSONSchema(schemaOf(setting), { io: "input", unrepresentable: "any" }) as JsonSchema;
  const typed = types.typeOfValue(shape, setting.config!);
  if ((typed.type ?? "string") !== (setting.type ?? "string")) {
    throw new Error(
      `The setting ${setting.config} is typed ${setting.type ?? "string"} in provider/settings/table.ts but its schema takes a ${typed.type}: make the two agree.`,
    );
  }
  return {
    ...typed,
    description: settingDescription(setting),
    ...(setting.secret ? { secret: true } : {}),
  };
}

/**
 * A setting as the schema's config section describes it: as an input, with its default in its type and
 * its SERVICE_* variable as where the default comes from first. The provider's inputs carry neither: the
 * SDKs would then read the environment and fill in the default in the program, and send them (the token
 * among them) to the provider's state, where a setting left out falls back in the provider's process.
 */
function settingVariable(setting: Setting, types: TypeCollector): TypeSpec {
  const { secret, ...input } = settingInput(setting, types);
  return {
    ...input,
    ...(setting.default === undefined
      ? {}
      : { default: setting.type === "number" ? Number(setting.default) : String(setting.default) }),
    ...(setting.env === undefined ? {} : { defaultInfo: { environment: [setting.env] } }),
    ...(secret ? { secret } : {}),
  };
}

/**
 * A custom resource's `stateInputs`: what `get` with a state takes to look one up, which is what its state
 * holds, its outputs.
 */
function stateInputs(name: string, properties: Record<string, TypeSpec>) {
  return {
    description: `Input properties used for looking up and filtering ${name} resources.`,
    type: "object",
    properties,
  };
}

/** The package's language sections: each SDK's package name, as the issue names them. */
function languages(peerPulumi: string) {
  return {
    csharp: {
      rootNamespace: "ServicePulumi",
      packageReferences: { Pulumi: "3.*" },
      respectSchemaVersion: true,
    },
    go: {
      importBasePath: "github.com/service-pulumi/service-pulumi/sdk/go/service",
      generateResourceContainerTypes: true,
      respectSchemaVersion: true,
    },
    nodejs: {
      packageName: "@service/pulumi-sdk",
      dependencies: { "@pulumi/pulumi": peerPulumi },
      respectSchemaVersion: true,
    },
    // No `requires`: the generator then names the lowest `pulumi` its own code needs (3.269.0 from
    // v3.274.1 on, for `exists`), which a hand-written range here would hide and fall behind.
    python: {
      packageName: "service_pulumi",
      pyproject: { enabled: true },
      // What the Pulumi SDK itself requires: pip then refuses an older Python with that reason.
      pythonRequires: ">=3.10",
      respectSchemaVersion: true,
    },
  };
}

/** Generates the schema from the sources under `root` (the package's folder). */
export function generateSchema(root: string) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const docs = new SourceDocs(root, DOCUMENTED_FILES);
  const types = new TypeCollector(docs, pluginToken, Object.values(ENUMS));

  function resource(shape: Shape) {
    const { secrets } = shape;
    const args = docs.declaration(shape.args.file, shape.args.name);
    const declared = docs.declaration(shape.resource.file, shape.resource.name);
    const inputs = types.properties(jsonSchema(shape.inputs, "input"), args, shape.resource.name);
    const outputShape = jsonSchema(shape.outputs, "output");
    const published = [...declared.members.keys()].filter((key) => key in (outputShape.properties ?? {}));
    const outputs: Properties = types.properties(outputShape, declared, shape.resource.name, published);
    const properties = withSecrets(outputs.properties, [...secrets.outputs, ...secrets.inputs]);
    return {
      description: declared.description,
      properties,
      required: outputs.required,
      inputProperties: withSecrets(inputs.properties, secrets.inputs),
      requiredInputs: inputs.required,
      stateInputs: stateInputs(shape.resource.name, properties),
    };
  }

  const resources: Record<string, object> = {};
  for (const declared of Object.values(registry)) {
    resources[declared.pluginToken] = resource(RESOURCE_SHAPES[declared.key]);
  }
  // A component is never looked up from state: it has no stateInputs.
  const { stateInputs: _none, ...component } = resource(DOMAIN_SHAPE);
  resources[DOMAIN_COMPONENT_TYPE] = { isComponent: true, ...component };

  const configured = SETTING_ROWS.flatMap(([, setting]) => (setting.config === undefined ? [] : [setting]));
  const settings = (spec: (setting: Setting, types: TypeCollector) => TypeSpec) =>
    Object.fromEntries(configured.map((setting) => [setting.config!, spec(setting, types)]));

  const repository = (pkg.repository.url as string).replace(/^git\+/, "").replace(/\.git$/, "");
  return {
    name: PLUGIN_PACKAGE,
    displayName: "Service",
    version: pkg.version as string,
    description: pkg.description as string,
    keywords: ["pulumi", PLUGIN_PACKAGE, "webhooks", "category/utility", "kind/native"],
    homepage: pkg.homepage as string,
    license: pkg.license as string,
    repository,
    publisher: "service-pulumi",
    // Plain HTTP on a name that resolves nowhere: the .NET generator downloads the logo at generation
    // time, and `npm run sdk` answers this one URL from docs/assets/logo.png (tools/codegen/sdk.mts).
    logoUrl: SDK_LOGO_URL,
    // Where the engine downloads the plugin binary for a version: the assets of the repository's GitHub
    // release `v<version>` (docs/releasing.md). Each SDK's pulumi-plugin.json carries it as `server`.
    pluginDownloadURL: repository.replace(/^https:\/\/github\.com\//, "github://api.github.com/"),
    // SDKs that pack on their own: a go.mod for Go, a pyproject.toml for Python.
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: settings(settingVariable) },
    provider: { description: CONFIG_DESCRIPTION, inputProperties: settings(settingInput) },
    resources,
    types: types.types,
    language: languages(pkg.peerDependencies["@pulumi/pulumi"] as string),
  };
}

/** Where the schema says the package's logo is; only `npm run sdk` ever fetches it. */
const SDK_LOGO_URL = "http://logo.service-pulumi.invalid/logo.png";

/** The schema as the file holds it: JSON with two-space indents and a final newline. */
export function schemaText(root: string): string {
  return `${JSON.stringify(generateSchema(root), null, 2)}\n`;
}
