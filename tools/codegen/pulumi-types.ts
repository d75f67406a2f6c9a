/**
 * Pulumi schema types from a zod schema's JSON Schema (its shapes: types, required members, nested
 * objects) and the TSDoc of the TypeScript declaration it stands for (names and descriptions). The zod
 * schema says what is accepted; the TSDoc says what it means.
 */
import type { Docs, SourceDocs } from "./tsdoc";

/** The part of a JSON Schema that zod's toJSONSchema writes and the conversion reads. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
}

/** A property or type in a Pulumi schema. */
export interface TypeSpec {
  readonly type?: string;
  readonly items?: TypeSpec;
  readonly additionalProperties?: TypeSpec;
  readonly $ref?: string;
  readonly description?: string;
  readonly secret?: boolean;
  readonly default?: string | number;
  readonly defaultInfo?: { readonly environment: readonly string[] };
}

/** One value of an enum type. */
export interface EnumValue {
  /** The name each SDK gives the value's constant (`ApiVersionV2_0` in Go). */
  readonly name: string;
  /** The value itself. */
  readonly value: string;
  /** What it means. */
  readonly description: string;
}

/** An enum, declared once (tools/codegen/schema-sources.ts): its values, and the name of its type. */
export interface EnumDeclaration {
  /** The type's name, whose token is the package's (`service:index:ApiVersion`). */
  readonly name: string;
  /** What a value of it is. */
  readonly description: string;
  /** Its values, in the order the SDKs list them. */
  readonly values: readonly EnumValue[];
}

/** An enum type of the Pulumi schema's `types` section. */
export interface EnumTypeSpec {
  readonly type: "string";
  readonly description: string;
  readonly enum: readonly EnumValue[];
}

/** An object type of the Pulumi schema's `types` section. */
export interface ObjectTypeSpec {
  readonly type: "object";
  readonly description: string;
  readonly properties: Record<string, TypeSpec>;
  readonly required?: string[];
}

/** Properties and their required names, as a Pulumi resource or object type lists them. */
export interface Properties {
  readonly properties: Record<string, TypeSpec>;
  readonly required: string[];
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Converts shapes into the schema's properties, collecting the object types they refer to. */
export class TypeCollector {
  /** The object and enum types, by token. */
  readonly types: Record<string, ObjectTypeSpec | EnumTypeSpec> = {};

  /**
   * @param enums - The enums a string with a fixed set of values refers to, by that set; a set of values
   *   not among them stays a string.
   */
  constructor(
    private readonly sources: SourceDocs,
    private readonly tokenOf: (name: string) => string,
    private readonly enums: readonly EnumDeclaration[] = [],
  ) {}

  /** The reference to the enum type `declared`, registered on first use. */
  enumRef(declared: EnumDeclaration): TypeSpec {
    const token = this.tokenOf(declared.name);
    this.types[token] ??= { type: "string", description: declared.description, enum: declared.values };
    return { $ref: `#/types/${token}` };
  }

  /** The enum declared with exactly the values `values`, in any order. */
  private enumOf(values: readonly unknown[]): EnumDeclaration | undefined {
    const key = JSON.stringify([...values].map(String).sort());
    return this.enums.find((e) => JSON.stringify(e.values.map((v) => v.value).sort()) === key);
  }

  /** The type of a value of the zod-made JSON Schema `shape` that holds no object of its own. */
  typeOfValue(shape: JsonSchema, name: string): TypeSpec {
    return this.typeOf(shape, undefined, name, name);
  }

  /**
   * The properties of an object `shape`, each described by its member in `docs`; `owner` names object
   * types that have no name of their own (`Webhook` + `owner` is `WebhookOwner`). Every property must be
   * documented: the schema's descriptions come from nowhere else.
   */
  properties(shape: JsonSchema, docs: Docs, owner: string, keys?: readonly string[]): Properties {
    const properties: Record<string, TypeSpec> = {};
    for (const key of keys ?? Object.keys(shape.properties ?? {})) {
      const member = shape.properties?.[key];
      if (!member) throw new Error(`${docs.name ?? owner}.${key} has no shape in its zod schema.`);
      const doc = docs.members.get(key);
      if (!doc?.description) {
        throw new Error(
          `${docs.name ?? owner}.${key} has no TSDoc: document it where it is declared, the schema takes its description from there.`,
        );
      }
      const nested = this.sources.objectIn(doc.typeNode);
      const type = this.typeOf(member, nested, `${owner}${pascal(key)}`, doc.description);
      properties[key] = { ...type, description: doc.description };
    }
    const required = (shape.required ?? []).filter((k) => k in properties);
    return { properties, required };
  }

  /**
   * The type of `shape`; an object in it is documented by `docs`, and named `fallbackName` and described
   * as the member that holds it (`about`) when it has no declaration of its own.
   */
  private typeOf(shape: JsonSchema, docs: Docs | undefined, fallbackName: string, about: string): TypeSpec {
    const variants = (shape.anyOf ?? []).filter((v) => v.type !== "null");
    if (variants.length === 1) return this.typeOf(variants[0]!, docs, fallbackName, about);
    const type = Array.isArray(shape.type) ? shape.type.find((t) => t !== "null") : shape.type;
    const declared = shape.enum && this.enumOf(shape.enum);
    if (declared) return this.enumRef(declared);
    switch (type) {
      case "string":
      case "boolean":
      case "number":
      case "integer":
        return { type };
      case "array":
        return {
          type: "array",
          items: this.typeOf(shape.items ?? {}, docs, fallbackName.replace(/s$/, ""), about),
        };
      case "object":
        if (!shape.properties) {
          const values = typeof shape.additionalProperties === "object" ? shape.additionalProperties : {};
          return {
            type: "object",
            additionalProperties: this.typeOf(values, undefined, fallbackName, about),
          };
        }
        return { $ref: `#/types/${this.objectType(shape, docs, fallbackName, about)}` };
      default:
        throw new Error(`${fallbackName}: no Pulumi schema type for ${JSON.stringify(shape)}.`);
    }
  }

  /** Registers the object type of `shape`, once per name; one name for two different shapes is an error. */
  private objectType(shape: JsonSchema, docs: Docs | undefined, fallbackName: string, about: string): string {
    if (!docs) throw new Error(`${fallbackName}: an object without a TypeScript declaration to document it.`);
    const name = docs.name ?? fallbackName;
    const token = this.tokenOf(name);
    const { properties, required } = this.properties(shape, docs, name);
    const spec: ObjectTypeSpec = {
      type: "object",
      description: docs.description || about,
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
    const known = this.types[token];
    if (known && !("properties" in known)) {
      throw new Error(`An object type and an enum are both named ${name}: name one of them otherwise.`);
    }
    if (known && JSON.stringify(shapeOf(known)) !== JSON.stringify(shapeOf(spec))) {
      throw new Error(`Two different object types are both named ${name}: name one of them otherwise.`);
    }
    this.types[token] ??= spec;
    return token;
  }
}

/** An object type without its descriptions: what two uses of one name must agree on. */
function shapeOf(spec: ObjectTypeSpec) {
  return {
    required: spec.required ?? [],
    properties: Object.fromEntries(
      Object.entries(spec.properties).map(([k, { description: _d, ...rest }]) => [k, rest]),
    ),
  };
}
