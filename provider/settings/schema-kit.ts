/**
 * What the settings table's schemas are built from. The table (table.ts) names each setting's schema as a
 * function of this kit rather than importing zod: the stack reader, the errors and the runtime bundle read
 * the table's names on every start of the dynamic-provider host, and must not load zod to do so. Only
 * the code that validates a setting (the client's resolution, the provider's readers) loads the kit.
 */
import { type ZodType, z } from "zod";
import { AcceptLanguage, ApiVersionSchema, BaseUrl } from "../../contract/connection";
import { safeString } from "../../contract/control-characters";

/**
 * The part of zod the settings' schemas use. Named member by member, not as zod's namespace object: a
 * bundle that holds the namespace as a value must keep every module of zod for it (its JSON Schema
 * reader and its parser compiler among them), which the runtime bundle would load on every command.
 */
type SettingsZod = Pick<typeof z, "coerce" | "number" | "record" | "string" | "url">;

/** The zod schemas and contract shapes a setting's schema is made of. */
export interface SchemaKit {
  /** The functions of zod the settings use. */
  readonly z: SettingsZod;
  /** A string without control characters. */
  readonly safeString: typeof safeString;
  /** An http(s) base URL the client accepts. */
  readonly BaseUrl: typeof BaseUrl;
  /** An API version the package speaks. */
  readonly ApiVersionSchema: typeof ApiVersionSchema;
  /** A display language of the service. */
  readonly AcceptLanguage: typeof AcceptLanguage;
}

const SCHEMA_KIT: SchemaKit = {
  z: { coerce: z.coerce, number: z.number, record: z.record, string: z.string, url: z.url },
  safeString,
  BaseUrl,
  ApiVersionSchema,
  AcceptLanguage,
};

/**
 * The zod schema of a valid value of `setting` (a row of the settings table; typed by its one member used
 * here, so that the kit imports nothing of the table, which names the kit's type).
 */
export function schemaOf<S extends { readonly schema: (kit: SchemaKit) => ZodType }>(
  setting: S,
): ReturnType<S["schema"]> {
  return setting.schema(SCHEMA_KIT) as ReturnType<S["schema"]>;
}
