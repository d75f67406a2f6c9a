/**
 * The OpenAPI 3.1 document of the Service API (openapi.json), generated from the route table the client
 * and the sandbox share (provider/client/routes.ts, gathered from the areas) and the request and response
 * schemas of contract/: every route of both generations with its errors (spec 7), and the webhook
 * deliveries with their signature header. `npm run openapi` writes it; a unit test fails when the file
 * differs from what this generates. The package ships it, and the sandbox serves it at /openapi.json.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_BASE_URL } from "../../contract/default-base-url";
import { DEFAULT_LANGUAGE, LANGUAGES } from "../../contract/languages";
import { Timestamp, WireOwner } from "../../contract/responses";
import type { Route } from "../../contract/routes";
import {
  AuthenticationItemV1Schema,
  AuthenticationItemV2Schema,
  FingerprintItemV1Schema,
  FingerprintItemV2Schema,
  ItemWarningSchema,
  SNAPSHOT_SCHEMAS,
} from "../../contract/sessions/item-responses";
import { IMAGE_QUERY_PARAMS } from "../../contract/sessions/requests";
import { API_VERSIONS, type ApiVersion, type ImageFlag, VERSION_TRAITS } from "../../contract/versions";
import { DOMAIN_ROUTES } from "../../provider/client/areas/domains";
import { INTEGRATION_ROUTES } from "../../provider/client/areas/integrations";
import { SESSION_ROUTES } from "../../provider/client/areas/sessions";
import { WEBHOOK_ROUTES } from "../../provider/client/areas/webhooks";
import { HEALTH_ROUTE, ROUTES, type RouteName } from "../../provider/client/routes";
import {
  type ErrorStatus,
  generation,
  type NamedSchema,
  OPERATIONS,
  type Operation,
} from "./openapi-operations";
import { codedRules, withoutControlCharacters } from "./openapi-rules";

/** The file the document is written to, at the package root; package.json exports it. */
export const OPENAPI_FILE = "openapi.json";

type Json = Record<string, unknown>;

/** The areas of the API, each a tag of the document. */
const AREAS: readonly { name: string; description: string; routes: Readonly<Record<string, Route>> }[] = [
  {
    name: "health",
    description: "The credentials and the service (spec 4.2).",
    routes: { health: HEALTH_ROUTE },
  },
  {
    name: "webhooks",
    description:
      "Webhooks and their deliveries (spec 2.6, 3.2, 6); a token with webhooks enabled. At most 10 active per organization.",
    routes: WEBHOOK_ROUTES,
  },
  {
    name: "domains",
    description:
      "The hostnames webhooks may target, and their verification (spec 2.7, 3.2, 4.3); a token with webhooks enabled.",
    routes: DOMAIN_ROUTES,
  },
  {
    name: "sessions",
    description:
      "Authentication and fingerprint sessions: get, lookup and search; the API only reads them (spec 2.2 to 2.5).",
    routes: SESSION_ROUTES,
  },
  {
    name: "integrations",
    description: "A customer backend's helpers for the mobile SDK (spec 2.8, 5); API 2.0 only.",
    routes: INTEGRATION_ROUTES,
  },
];

/** The tag of each generation, by its Api-Version. */
const GENERATION_TAGS: Readonly<Record<ApiVersion, { name: string; description: string }>> = {
  "1.4": { name: "v1.4", description: "API 1.4: the paths /v1/..., with the header `Api-Version: 1.4`." },
  "2.0": {
    name: "v2",
    description: "API 2.0: the paths /v2/..., with the header `Api-Version: 2.0`. New applications use v2.",
  },
};

/**
 * A string without control characters (C0, DEL and C1): the sandbox refuses one in any string of a
 * request, path, query or body, the members a route ignores included (contract/control-characters.ts).
 */
const NO_CONTROL_CHARACTERS = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";

/** Any JSON value whose strings hold no control character: what a member a route does not read may hold. */
const PLAIN_JSON = {
  description:
    "Any JSON value whose strings hold no control character (C0, DEL, C1): the sandbox refuses one in every member of a request, those it does not read included.",
  anyOf: [
    { type: ["null", "boolean", "number"] },
    { type: "string", pattern: NO_CONTROL_CHARACTERS },
    { type: "array", items: { $ref: "#/components/schemas/PlainJson" } },
    { type: "object", additionalProperties: { $ref: "#/components/schemas/PlainJson" } },
  ],
};

/** The path parameters the routes name, each with what it holds. */
const PATH_PARAMETERS: Readonly<Record<string, Json>> = {
  service_id: {
    description: "The session's id, `service_id`.",
    schema: { type: "string", minLength: 1, pattern: NO_CONTROL_CHARACTERS },
  },
  lookup_value: {
    description: "A customer item id (your order id or SKU), matched against `text_fields.customer_item_id`.",
    schema: { type: "string", minLength: 1, pattern: NO_CONTROL_CHARACTERS },
  },
  webhook_uuid: { description: "The webhook's `webhook_uuid`.", schema: { type: "string", format: "uuid" } },
  domain_uuid: { description: "The domain's `domain_uuid`.", schema: { type: "string", format: "uuid" } },
};

/** What each image flag does, as a GET's query parameter (spec 2.5). */
const IMAGE_FLAG_DOCS: Readonly<Record<ImageFlag, string>> = {
  return_item_photos:
    "Region-keyed photos under `item.images.photos`. Their URLs are temporary: they expire after one hour.",
  include_images:
    "`item.images` as a list of `{type, url}`, `type` being `thumbnail` or `high_resolution`; wins over `format_options__return_item_photos`.",
};

/**
 * An Accept-Language the service reads: blank, or a list with a range whose primary subtag is one of the
 * languages or `*` (in any case). A header that does not match names no language the service answers in.
 */
const ACCEPT_LANGUAGE_PATTERN = `^\\s*$|(^|,)\\s*(${[...LANGUAGES, "*"]
  .map((tag) => [...tag].map((c) => (c === "*" ? "\\*" : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join(""))
  .join("|")})(-[^,;]*)?\\s*(;|,|$)`;

/** `SHA256:` and the canonical base64 of a 32-byte HMAC-SHA256 (spec 6). */
const SIGNATURE_PATTERN = "^SHA256:[A-Za-z0-9+/]{43}=$";

/** The spec shows no error body (spec 7, not-shown.md): the document names what the sandbox sends, and requires nothing. */
const ERROR_SCHEMA = {
  type: "object",
  description:
    "The body of an error response. The spec does not show its shape: read it defensively, keeping the status. The sandbox answers `{error: {code, message, fields}}`, `fields` naming the parameters at fault.",
  properties: {
    error: {
      type: "object",
      properties: {
        code: {
          type: "string",
          description: "What went wrong, in a stable word such as `invalid_parameters`.",
        },
        message: { type: "string", description: "What went wrong and what to do, for a person." },
        fields: {
          type: "array",
          description: "The parameters at fault.",
          items: {
            type: "object",
            properties: {
              field: { type: "string", description: "The parameter's path, such as `endpoint.value`." },
              message: { type: "string", description: "What is wrong with it." },
            },
          },
        },
      },
    },
  },
};

/** The schemas every route's schemas refer to, under their component names. */
const SHARED_SCHEMAS: readonly NamedSchema[] = [
  { name: "Timestamp", schema: Timestamp },
  { name: "Owner", schema: WireOwner },
  { name: "ItemWarning", schema: ItemWarningSchema },
  { name: "AuthenticationItemV1", schema: AuthenticationItemV1Schema },
  { name: "AuthenticationItemV2", schema: AuthenticationItemV2Schema },
  { name: "FingerprintItemV1", schema: FingerprintItemV1Schema },
  { name: "FingerprintItemV2", schema: FingerprintItemV2Schema },
];

/**
 * The named schemas of the document: each is converted once, and every other schema that holds it refers
 * to it by `$ref`. A name given to two different schemas is a mistake in openapi-operations.ts.
 */
class Components {
  private readonly registry = z.registry<{ id: string }>();
  private readonly byName = new Map<string, z.ZodType>();
  /** The names of the request bodies' schemas, whose strings the sandbox checks for control characters. */
  private readonly requests = new Set<string>();

  constructor() {
    for (const shared of SHARED_SCHEMAS) this.ref(shared);
  }

  /** A reference to `named`, which joins the components; a request body's when `request`. */
  ref(named: NamedSchema, request = false): Json {
    if (request) this.requests.add(named.name);
    const holder = this.byName.get(named.name);
    const known = this.registry.get(named.schema)?.id;
    if ((holder !== undefined && holder !== named.schema) || (known !== undefined && known !== named.name)) {
      throw new Error(
        `The name ${named.name} is given to two schemas, or its schema has another name (${known}): give each schema one name of its own in tools/codegen/openapi-operations.ts.`,
      );
    }
    this.byName.set(named.name, named.schema);
    this.registry.add(named.schema, { id: named.name });
    return { $ref: `#/components/schemas/${named.name}` };
  }

  /** What a value of any of `schemas` is: one reference, or `anyOf` them. */
  anyOf(schemas: readonly NamedSchema[]): Json {
    const refs = schemas.map((s) => this.ref(s));
    return refs.length === 1 ? refs[0]! : { anyOf: refs };
  }

  /**
   * Every named schema as JSON Schema, in name order. Requests and responses alike are described by what
   * their zod schemas accept (`io: "input"`), which is what crosses the wire: the defaults the client
   * fills in are not required of the service.
   */
  schemas(): Json {
    const rules = codedRules();
    const { schemas } = z.toJSONSchema(this.registry, {
      io: "input",
      unrepresentable: "any",
      uri: (id) => `#/components/schemas/${id}`,
      override: ({ zodSchema, jsonSchema }) => {
        const rule = rules.get(zodSchema);
        if (rule) {
          for (const key of Object.keys(jsonSchema)) delete jsonSchema[key as keyof typeof jsonSchema];
          Object.assign(jsonSchema, structuredClone(rule));
        }
        // Every integer of zod is a safe one; saying so on each says nothing the reader needs.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      },
    });
    const named = Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => {
      if (this.requests.has(id)) withoutControlCharacters(schema, NO_CONTROL_CHARACTERS);
      return [id, schema];
    });
    return Object.fromEntries(
      [...named, ["Error", ERROR_SCHEMA], ["PlainJson", PLAIN_JSON]].sort(([a], [b]) =>
        String(a).localeCompare(String(b)),
      ),
    );
  }
}

const json = (schema: Json) => ({ "application/json": { schema } });

/** An error response: the sandbox's JSON, or whatever text the service sends. */
const errorResponse = (description: string, extra: Json = {}) => ({
  description,
  ...extra,
  content: {
    ...json({ $ref: "#/components/schemas/Error" }),
    "text/plain": { schema: { type: "string" } },
  },
});

const RETRY_AFTER = {
  headers: {
    "Retry-After": {
      description: "The seconds to wait before sending again.",
      required: true,
      schema: { type: "integer", minimum: 0 },
    },
  },
};

/** The errors every route may answer, by status: when, and the name of their shared response. */
const COMMON_ERRORS = {
  400: {
    name: "BadRequest",
    when: "Incorrect headers (Api-Version, Accept-Language), or invalid parameters: a malformed body, invalid JSON, or a member that breaks a rule (spec 7).",
  },
  401: { name: "Unauthorized", when: "The token is missing or invalid (spec 5, 7)." },
  429: {
    name: "TooManyRequests",
    when: "The rate limit (about 10 requests per second) is exceeded (spec 7, 8).",
    extra: RETRY_AFTER,
  },
} as const;

/** The shared responses of `COMMON_ERRORS`, by name. */
const commonResponses = () =>
  Object.fromEntries(
    Object.values(COMMON_ERRORS).map((e) => [e.name, errorResponse(e.when, "extra" in e ? e.extra : {})]),
  );

const sentences = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined).join(" ");

/** The responses of one route: 200, the errors every route answers, and its own. */
function responses(route: Route, op: Operation, components: Components): Json {
  const own = (status: number): string | undefined => op.errors?.[status as ErrorStatus];
  const common = (status: keyof typeof COMMON_ERRORS) => {
    const e = COMMON_ERRORS[status];
    return own(status) === undefined
      ? { $ref: `#/components/responses/${e.name}` }
      : errorResponse(sentences(e.when, own(status)), "extra" in e ? e.extra : {});
  };
  const forbidden = sentences(
    own(403),
    route.webhooksFeature
      ? "The token does not have webhooks enabled (spec 5; the spec gives no status for this refusal, the sandbox answers 403)."
      : undefined,
  );
  return {
    "200": { description: op.returns, content: json(components.anyOf(op.response)) },
    "400": common(400),
    "401": common(401),
    ...(forbidden ? { "403": errorResponse(forbidden) } : {}),
    ...(own(409) ? { "409": errorResponse(own(409)!) } : {}),
    "429": common(429),
    ...(own(503) ? { "503": errorResponse(own(503)!) } : {}),
  };
}

/** The path, query and header parameters of one route. */
function parameters(route: Route, op: Operation): Json[] {
  const path = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => {
    const doc = PATH_PARAMETERS[name!];
    if (!doc)
      throw new Error(
        `The path parameter ${name} of ${route.path} is not described in tools/codegen/openapi.ts.`,
      );
    return { name, in: "path", required: true, ...doc };
  });
  const flags = op.imagesOf === undefined ? [] : VERSION_TRAITS[route.version].imageFlags[op.imagesOf];
  const query = flags.map((flag) => ({
    name: IMAGE_QUERY_PARAMS[flag],
    in: "query",
    required: false,
    description: IMAGE_FLAG_DOCS[flag],
    schema: { type: "boolean", default: false },
  }));
  return [
    ...path,
    ...query,
    {
      name: "Api-Version",
      in: "header",
      required: true,
      description: `The API generation: ${route.accepts.join(" or ")} on this route (spec 9).`,
      schema: { type: "string", enum: [...route.accepts] },
    },
    { $ref: "#/components/parameters/AcceptLanguage" },
  ];
}

/** A route's body; one that may be left out may also be `null`, which reads as left out. */
function requestBody(body: NonNullable<Operation["body"]>, components: Components): Json {
  const ref = components.ref(body.schema, true);
  const schema = body.optional ? { anyOf: [ref, { type: "null" }] } : ref;
  const content = {
    "application/json": { schema, ...(body.example === undefined ? {} : { example: body.example }) },
  };
  return body.optional
    ? { required: false, description: "May be left out, or `null`: either reads as `{}`.", content }
    : { required: true, content };
}

function operation(name: RouteName, route: Route, components: Components): Json {
  const entry = OPERATIONS[name];
  const op = typeof entry === "function" ? entry(route.version) : entry;
  const area = AREAS.find((a) => Object.hasOwn(a.routes, name))!;
  const description = [
    op.description,
    route.webhooksFeature ? "Needs a token with webhooks enabled (spec 5)." : undefined,
    route.inferred ? `Inferred: the spec does not show this route (${route.inferred}).` : undefined,
  ].filter((p) => p !== undefined);
  return {
    operationId: name,
    summary: op.summary,
    ...(description.length > 0 ? { description: description.join("\n\n") } : {}),
    tags: [area.name, GENERATION_TAGS[route.version].name],
    ...(route.inferred ? { "x-inferred": route.inferred } : {}),
    parameters: parameters(route, op),
    ...(op.body ? { requestBody: requestBody(op.body, components) } : {}),
    responses: responses(route, op, components),
  };
}

/** What a webhook created on API `version` POSTs to its endpoint (spec 6). */
function delivery(version: ApiVersion, components: Components): Json {
  const snapshots = SNAPSHOT_SCHEMAS[version];
  const { deliveryOmits } = VERSION_TRAITS[version];
  const omitted = [
    "fingerprint_parent",
    ...(deliveryOmits.timestamp ? ["timestamp"] : []),
    ...deliveryOmits.status.map((key) => `status.${key}`),
  ].map((key) => `\`${key}\``);
  const body = components.ref({
    name: `Delivery${generation(version)}`,
    schema: z.object({
      channel: z.string(),
      item_count: z.number().int().min(0),
      items: z.array(z.union([snapshots.authentication, snapshots.fingerprint])),
      webhook_uuid: z.string(),
    }),
  });
  for (const [kind, schema] of Object.entries(snapshots)) {
    components.ref({
      name: `${kind[0]!.toUpperCase()}${kind.slice(1)}Snapshot${generation(version)}`,
      schema,
    });
  }
  return {
    post: {
      operationId: `delivery${generation(version)}`,
      summary: `A delivery of a webhook created on API ${version}`,
      description: sentences(
        "Sent when a session that matches the webhook's filters is created or changes; there are no named event types.",
        `Each item is a search item with \`update_counter\`, and without ${omitted.join(", ")}.`,
        "Deliveries may arrive out of order: keep the stored `update_counter` of each session and discard an item with a lower one.",
        "`channel` lets several webhooks share one URL.",
      ),
      tags: ["webhooks", GENERATION_TAGS[version].name],
      security: [],
      parameters: [
        {
          name: "Service-Signature",
          in: "header",
          required: true,
          description:
            "`SHA256:` and the base64 of the HMAC-SHA256 of the raw request body under the webhook's secret key. Recompute it over the bytes received and compare in constant time: a mismatch means the delivery is not genuine.",
          schema: { type: "string", pattern: SIGNATURE_PATTERN },
        },
      ],
      requestBody: { required: true, content: json(body) },
      responses: {
        "200": { description: "Received." },
        default: {
          description:
            "Any other status, no response or a timeout is a temporary failure: the delivery is retried at increasing intervals until it succeeds or the maximum delivery time passes.",
        },
      },
    },
  };
}

/** The whole document, with the package's version (read from `root`'s package.json) as its own. */
export function generateOpenApi(root: string): Json {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const components = new Components();
  const paths: Record<string, Json> = {};
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, Route][]) {
    paths[route.path] = {
      ...paths[route.path],
      [route.method.toLowerCase()]: operation(name, route, components),
    };
  }
  const webhooks = Object.fromEntries(
    [...API_VERSIONS].reverse().map((v) => [`delivery${generation(v)}`, delivery(v, components)]),
  );
  return {
    openapi: "3.1.1",
    info: {
      title: "Item Authenticity Service API",
      version,
      description: [
        "Both generations of the API: v1.4 (paths /v1/..., `Api-Version: 1.4`) and v2 (paths /v2/..., `Api-Version: 2.0`).",
        "Objects may gain keys, and arrays elements, without a new version: a client must tolerate them (spec 9).",
        "Routes with `x-inferred` are ones the spec does not show; it names where each comes from.",
        "Generated by @service/pulumi (`npm run openapi`) from the route table and the request and response schemas that its client and its sandbox share.",
      ].join("\n\n"),
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [
      {
        url: DEFAULT_BASE_URL,
        description:
          "The sandbox (`npx service-sandbox`) at its default address; the service's own comes with your token.",
      },
    ],
    security: [{ ApiToken: [] }],
    tags: [
      ...AREAS.map(({ name, description }) => ({ name, description })),
      ...[...API_VERSIONS].reverse().map((v) => GENERATION_TAGS[v]),
    ],
    paths,
    webhooks,
    components: {
      schemas: components.schemas(),
      responses: commonResponses(),
      parameters: {
        AcceptLanguage: {
          name: "Accept-Language",
          in: "header",
          required: false,
          description: `The language of the display strings (spec 4.1): ${LANGUAGES.join(" or ")}. A list of language ranges (RFC 9110) is read too: the most preferred of ${LANGUAGES.join(" and ")}, by primary subtag in any case (\`ja-JP\` is ja). Left out, empty or \`*\`, it is ${DEFAULT_LANGUAGE}; one that names neither is refused with 400.`,
          schema: {
            type: "string",
            default: DEFAULT_LANGUAGE,
            examples: [...LANGUAGES],
            pattern: ACCEPT_LANGUAGE_PATTERN,
          },
        },
      },
      securitySchemes: {
        ApiToken: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Token <API_TOKEN>`, on every request (spec 5).",
        },
      },
    },
  };
}

/** The document as the file holds it. */
export function openApiText(root: string): string {
  return `${JSON.stringify(generateOpenApi(root), null, 2)}\n`;
}
