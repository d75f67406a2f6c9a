/**
 * The request rules that contract/ checks in code (zod refinements, which JSON Schema cannot read) and
 * that a schema can state: a hostname's form, a webhook endpoint's form, a webhook's filters. The
 * document states them here, from the same constants, so that a request the document allows is one the
 * sandbox accepts unless a rule of state refuses it (a domain not registered, a cursor not issued:
 * schemathesis.toml names those). A unit test checks that every hostname and endpoint these patterns
 * allow is one the zod schemas accept; schemathesis checks the rest against the sandbox.
 */
import { Hostname } from "../../contract/domains/requests";
import { SESSION_KINDS } from "../../contract/kinds";
import { API_VERSIONS, type ApiVersion, VERSION_TRAITS } from "../../contract/versions";
import { FILTER_KEYS, FORM_FACTORS, webhookCreateBodySchema } from "../../contract/webhooks/requests";

type Json = Record<string, unknown>;

/** A hostname label: letters, digits and inner hyphens (contract/domains/requests.ts). */
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/**
 * The last label begins with a letter: one that is a number (decimal, or 0x hex) makes the whole host an
 * IPv4 address, which is refused. This says a little less than the sandbox accepts (`a.1b`), never more.
 */
const LAST_LABEL = "[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** A bare, lower-case hostname of at least two labels, not an IP address. */
const HOST = `(?:${LABEL}\\.)+${LAST_LABEL}`;

const HOSTNAME = {
  type: "string",
  maxLength: 253,
  pattern: `^${HOST}$`,
  description:
    "A bare, lower-case hostname of at least two labels (no scheme, port or path), not an IP address.",
};

/**
 * An https URL on such a host, without credentials; on API 2.0 without a query, fragment or ;params
 * (contract/webhooks/requests.ts).
 */
function endpointValue(version: ApiVersion): Json {
  const rest = VERSION_TRAITS[version].endpointMustBeBare ? "(?:/[^?#;\\s]*)?" : "(?:[/?#]\\S*)?";
  return {
    type: "string",
    pattern: `^https://${HOST}(?::[1-9][0-9]{0,3})?${rest}$`,
    description: `An https URL on a domain registered to the organization, without credentials${VERSION_TRAITS[version].endpointMustBeBare ? ", query, fragment or ;params" : ""}.`,
  };
}

/**
 * A filter on `key` whose values are `values` (any non-empty string when undefined), at most `most`.
 * API 1.4 takes exactly one of value or values; 2.0 takes either or both, and reads only `value` when
 * both are sent, `values` then being any list of non-empty strings.
 */
function filterOn(key: string, version: ApiVersion, values?: readonly string[], most?: number): Json {
  const value = values ? { type: "string", enum: [...values] } : { type: "string", minLength: 1 };
  const anyValues = { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 };
  const both = VERSION_TRAITS[version].filterValueAndValuesAllowed;
  return {
    type: "object",
    properties: { key: { const: key }, value, values: anyValues },
    required: ["key"],
    anyOf: [
      { required: ["value"], ...(both ? {} : { not: { required: ["values"] } }) },
      {
        required: ["values"],
        not: { required: ["value"] },
        properties: { values: { ...anyValues, items: value, ...(most ? { maxItems: most } : {}) } },
      },
    ],
  };
}

/** A webhook's filters: known keys, each at most once, one of them `activity.name` with one session kind. */
function filters(version: ApiVersion): Json {
  const [name, formFactor, username] = FILTER_KEYS;
  return {
    type: "array",
    items: {
      oneOf: [
        filterOn(name, version, SESSION_KINDS, 1),
        filterOn(formFactor, version, FORM_FACTORS),
        filterOn(username, version),
      ],
    },
    contains: { type: "object", properties: { key: { const: name } }, required: ["key"] },
    allOf: FILTER_KEYS.map((key) => ({
      contains: { type: "object", properties: { key: { const: key } } },
      minContains: 0,
      maxContains: 1,
    })),
    description: `Each of ${FILTER_KEYS.join(", ")} at most once; \`${name}\` is required, with one value: ${SESSION_KINDS.join(" or ")}.`,
  };
}

/** The JSON Schema of each zod schema whose rules are code, by the schema. */
export function codedRules(): Map<unknown, Json> {
  const rules = new Map<unknown, Json>([[Hostname, HOSTNAME]]);
  for (const version of API_VERSIONS) {
    const { shape } = webhookCreateBodySchema(version);
    rules.set(shape.endpoint.shape.value, endpointValue(version));
    rules.set(shape.filters, filters(version));
  }
  return rules;
}

/**
 * States, in a request's schema as converted, that no string holds a control character and that the
 * members an object does not name hold only such plain JSON (`PlainJson`), as the sandbox checks
 * every string of a request. Constants and enumerations are left as they are.
 */
export function withoutControlCharacters(schema: Json, pattern: string): void {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("string") && schema.const === undefined && schema.enum === undefined) {
    if (schema.pattern === undefined) schema.pattern = pattern;
    else schema.allOf = [...((schema.allOf as Json[]) ?? []), { pattern }];
  }
  if (types.includes("object") && schema.additionalProperties !== false) {
    const extra = schema.additionalProperties;
    if (extra === undefined || (typeof extra === "object" && Object.keys(extra as Json).length === 0)) {
      schema.additionalProperties = { $ref: "#/components/schemas/PlainJson" };
    }
  }
  const children = [
    ...Object.values((schema.properties as Record<string, Json>) ?? {}),
    ...(schema.items && typeof schema.items === "object" ? [schema.items as Json] : []),
    ...["anyOf", "oneOf", "allOf"].flatMap((k) => (schema[k] as Json[]) ?? []),
    ...(schema.additionalProperties && typeof schema.additionalProperties === "object"
      ? [schema.additionalProperties as Json]
      : []),
  ];
  for (const child of children) if (child.$ref === undefined) withoutControlCharacters(child, pattern);
}
