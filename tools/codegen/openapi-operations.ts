/**
 * What openapi.json says about each route of the route table (provider/client/routes.ts) beyond its
 * method, path and Api-Version: its words, its request and response schemas (those of contract/, the
 * ones the client and the sandbox check with) and the errors it may answer besides 400, 401 and 429.
 * Typed by route name, so that a route added to an area without an entry here fails to compile.
 */
import { z } from "zod";
import { FinishRegistrationBody, StartRegistrationBody } from "../../contract/domains/requests";
import * as DomainResponses from "../../contract/domains/responses";
import { AuthorizeUserBody, LoginVoucherBody } from "../../contract/integrations/requests";
import {
  AuthenticationConfigSchema,
  AuthorizedUserSchema,
  LoginVoucherSchema,
  SupportedBrandsSchema,
} from "../../contract/integrations/responses";
import type { SessionKind } from "../../contract/kinds";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { listPageBodySchema } from "../../contract/pages";
import { ListEnvelope, StatusOk } from "../../contract/responses";
import { searchBodySchema } from "../../contract/sessions/requests";
import { SESSION_RESPONSES, ServiceIdPageSchema } from "../../contract/sessions/responses";
import { type ApiVersion, VERSION_TRAITS } from "../../contract/versions";
import { webhookCreateBodySchema } from "../../contract/webhooks/requests";
import * as WebhookResponses from "../../contract/webhooks/responses";
import type { RouteName } from "../../provider/client/routes";

/** A schema of contract/ under the name it has in the document's `components.schemas`. */
export interface NamedSchema {
  readonly name: string;
  readonly schema: z.ZodType;
}

/** The statuses an operation may answer besides 200 and the 400, 401 and 429 every route may answer. */
export type ErrorStatus = 400 | 403 | 409 | 429 | 503;

/** What the document says about one route. */
export interface Operation {
  /** One line: what it does. */
  readonly summary: string;
  /** What it returns, as the 200 response describes it. */
  readonly returns: string;
  /** More about it: rules and where the spec says so. */
  readonly description?: string;
  /**
   * The request body: its schema, whether it may be left out (the service then reads `{}`), and an
   * example of it, which tools such as schemathesis also send.
   */
  readonly body?: { readonly schema: NamedSchema; readonly optional?: boolean; readonly example?: unknown };
  /** GET and lookup of this kind of session: the image flags its generation reads are query parameters. */
  readonly imagesOf?: SessionKind;
  /** The 200 response's schemas: one, or any of several (a search answers items or service ids). */
  readonly response: readonly NamedSchema[];
  /** When the route answers each error status beyond the ones every route answers. */
  readonly errors?: Partial<Record<ErrorStatus, string>>;
}

/** `V1` or `V2`: the generation a component's name ends in, as its paths begin `/v1` or `/v2`. */
export const generation = (version: ApiVersion) => `V${version.split(".")[0]}`;

/** A preprocessed schema's own (`z.preprocess` fills in an absent body first), whose input a document can say. */
function preprocessed(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as { type: string; in?: { _zod: { def: { type: string } } }; out?: z.ZodType };
  return def.type === "pipe" && def.in?._zod.def.type === "transform" ? def.out! : schema;
}

const named = (name: string, schema: z.ZodType): NamedSchema => ({ name, schema: preprocessed(schema) });

const STATUS_OK = named("StatusOk", StatusOk);
const WEBHOOK = named("Webhook", WebhookResponses.Webhook);
const WEBHOOK_LIST = named("WebhookList", ListEnvelope(WebhookResponses.Webhook));
const DOMAIN = named("Domain", DomainResponses.Domain);
const DOMAIN_LIST = named("DomainList", ListEnvelope(DomainResponses.Domain));
/** What a search returns with `return: "service_ids"`. */
const SERVICE_ID_PAGE = named("ServiceIdPage", ServiceIdPageSchema);
/** The body of the routes that read none: any JSON object, or nothing. */
const NO_PARAMETERS = named("NoParameters", z.looseObject({}));

const KIND_NAMES: Readonly<Record<SessionKind, string>> = {
  authentication: "Authentication",
  fingerprint: "Fingerprint",
};

/** The 400 of a page's request whose cursor is well formed, but is not one the service issued (spec 4.1). */
const FOREIGN_CURSOR =
  "A `cursor` the service did not issue: send the `next_cursor` of the previous page, or null (spec 4.1).";

/** Webhook and domain search: the body `{limit, cursor}`, and how it pages. */
function listing(version: ApiVersion, what: string, response: NamedSchema): Operation {
  const { min, max, default: size } = VERSION_TRAITS[version].listPage;
  return {
    summary: `List the ${what}`,
    returns: `A page of the organization's ${what}: \`{item_count, items, next_cursor}\` (spec 4.1).`,
    description: `\`limit\`: ${min} to ${max}, default ${size}. Pass a page's \`next_cursor\` as \`cursor\` for the next one; null means the last.`,
    body: { schema: named(`ListRequest${generation(version)}`, listPageBodySchema(version)), optional: true },
    response: [response],
    errors: { 400: FOREIGN_CURSOR },
  };
}

const WEBHOOK_NOT_FOUND =
  "The webhook does not exist, is deactivated or belongs to another organization: the service tells these apart to no one (spec 7).";

/** The host of the examples; the schemathesis check registers the one of each webhook example first. */
const EXAMPLE_HOST = "hooks.example.com";

/** `at least 20` or `16 to 256`: the secret key's length in `version`. */
function secretKeyLength(version: ApiVersion): string {
  const { min, max } = VERSION_TRAITS[version].secretKey;
  return max === undefined ? `at least ${min}` : `${min} to ${max}`;
}

const createWebhook = (version: ApiVersion): Operation => ({
  summary: "Create a webhook",
  returns: "The webhook (spec 2.6); the secret key is never returned.",
  description: [
    "Deliveries start for sessions that match its filters (spec 3.2 and 6).",
    `\`secret_key\`: ${secretKeyLength(version)} characters.`,
    "`filters` must hold `activity.name` with one value, `authentication` or `fingerprint`; the other keys are `activity.form_factor` (`lightbox`, `microscopic`, `free_camera`) and `owner.user.username` (a user of the organization).",
    `\`endpoint.value\` is an HTTPS URL on a domain registered to the organization${VERSION_TRAITS[version].endpointMustBeBare ? ", with no query, fragment or ;params" : ""}.`,
  ].join(" "),
  body: {
    schema: named(`WebhookCreateRequest${generation(version)}`, webhookCreateBodySchema(version)),
    example: {
      endpoint: { type: "url", value: `https://${EXAMPLE_HOST}/service/events` },
      secret_key: "replace-with-a-random-key-of-32-chars",
      channel: "orders",
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
      ],
    },
  },
  response: [WEBHOOK],
  errors: {
    ...(VERSION_TRAITS[version].invalidCreateStatus === 403
      ? {
          403: "A parameter invalid for the token: a username outside the organization, or an endpoint whose domain is not registered to it (spec 7).",
        }
      : {
          400: "A parameter invalid for the token: a username outside the organization, or an endpoint whose domain is not registered to it.",
        }),
    409: `The organization already has ${MAX_ACTIVE_WEBHOOKS} active webhooks, the most it may have (spec 3.2, 7).`,
  },
});

const getWebhook: Operation = {
  summary: "Get a webhook",
  returns: "The webhook (spec 2.6); its configuration only, no delivery history.",
  response: [WEBHOOK],
  errors: { 403: WEBHOOK_NOT_FOUND },
};

const deactivateWebhook: Operation = {
  summary: "Deactivate a webhook",
  returns: "`{status: ok}`.",
  description: "No further deliveries. There is no way back: create a new webhook instead (spec 3.2).",
  response: [STATUS_OK],
  errors: { 403: WEBHOOK_NOT_FOUND },
};

const searchWebhooks = (version: ApiVersion) => listing(version, "active webhooks", WEBHOOK_LIST);
const searchDomains = (version: ApiVersion) => listing(version, "registered domains", DOMAIN_LIST);

const NOT_FOUND = (what: string) =>
  `The ${what} does not exist or belongs to another organization: the service tells these apart to no one (spec 7).`;

const getSession =
  (kind: SessionKind) =>
  (version: ApiVersion): Operation => ({
    summary: `Get ${kind === "authentication" ? "an" : "a"} ${kind}`,
    returns: `\`{item}\`, with \`warnings\` when part of the item is unavailable to the caller (spec 2.3).`,
    imagesOf: kind,
    response: [
      named(`${KIND_NAMES[kind]}Response${generation(version)}`, SESSION_RESPONSES[kind][version].one),
    ],
    errors: { 403: NOT_FOUND(kind) },
  });

const lookupAuthentication = (version: ApiVersion): Operation => ({
  summary: "Look up an authentication by customer item id",
  returns: "`{item}`: the authentication of that customer item id.",
  description: VERSION_TRAITS[version].lookupPrefersFinal
    ? "The first authentication with a final result, else the latest in progress or not final (spec 4.2)."
    : "The latest authentication of that customer item id (spec 4.3).",
  imagesOf: "authentication",
  response: [
    named(`AuthenticationResponse${generation(version)}`, SESSION_RESPONSES.authentication[version].one),
  ],
  errors: { 403: NOT_FOUND("authentication") },
});

const searchSessions =
  (kind: SessionKind) =>
  (version: ApiVersion): Operation => {
    const { max, default: size, aboveMax } = VERSION_TRAITS[version].searchPage;
    return {
      summary: `Search ${kind}s`,
      returns:
        "The items envelope `{item_count, items, next_cursor}`, or with `return: service_ids` the ids envelope `{service_id_count, service_ids, next_cursor}` (spec 4.1).",
      description: [
        "Every member is optional, and members the service does not know are accepted.",
        `\`limit\` defaults to ${size}; ${aboveMax === "cap" ? `a larger one is capped at ${max}` : `${max} at most`}.`,
        VERSION_TRAITS[version].restrictsSearchFilterKeys
          ? "Each filter names one of the keys spec 4.2 lists for this search, with exactly one of `value` or `values`; a filter on `text_fields.identifier` also needs one on `properties.brand.id`."
          : "The filter keys of v2 searches are not shown by the spec; each filter needs `value` or `values`, and `value` wins when both are sent.",
        "Pass a page's `next_cursor` as `cursor` for the next one; null means the last.",
      ].join(" "),
      body: {
        schema: named(`${KIND_NAMES[kind]}Search${generation(version)}`, searchBodySchema(version, kind)),
        optional: true,
        example: {
          filters: [{ key: "owner.user.username", values: ["acme-ann", "acme-bo"] }],
          range: { start: 1_767_225_600, end: null },
          limit: 10,
        },
      },
      response: [
        named(`${KIND_NAMES[kind]}Page${generation(version)}`, SESSION_RESPONSES[kind][version].page),
        SERVICE_ID_PAGE,
      ],
      errors: { 400: FOREIGN_CURSOR },
    };
  };

/** An operation that is the same in both generations but for the version its schemas are read in. */
type ByVersion = (version: ApiVersion) => Operation;

/** What the document says about each route, by its name in the route table. */
export const OPERATIONS: Readonly<Record<RouteName, Operation | ByVersion>> = {
  health: {
    summary: "Check the credentials and the service",
    returns: "`{status: ok}`.",
    response: [STATUS_OK],
  },
  v1CreateWebhook: createWebhook,
  v1GetWebhook: getWebhook,
  v1DeactivateWebhook: deactivateWebhook,
  v1SearchWebhooks: searchWebhooks,
  v2CreateWebhook: createWebhook,
  v2GetWebhook: getWebhook,
  v2DeactivateWebhook: deactivateWebhook,
  v2SearchWebhooks: searchWebhooks,
  v1SearchDomains: searchDomains,
  v2SearchDomains: searchDomains,
  v2StartDomainRegistration: {
    summary: "Start a domain's registration",
    returns:
      "`{domain_name, url, verifier, register_token, expires_at}` (spec 2.8). `register_token` is a secret: never log it.",
    description:
      "Then make `url` (`https://<domain_name>/service_url_registration/<verifier>`) answer exactly `register_token` as its whole body, over public HTTPS with no redirect, and finish the registration before `expires_at` (spec 4.3).",
    body: {
      schema: named("StartRegistrationRequest", StartRegistrationBody),
      example: { domain_name: EXAMPLE_HOST },
    },
    response: [named("DomainRegistrationStart", DomainResponses.DomainRegistrationStart)],
  },
  v2FinishDomainRegistration: {
    summary: "Finish a domain's registration",
    returns:
      "The registered domain, with its `verifier` (spec 2.7). Finishing a registered domain again returns it again.",
    description:
      "The service fetches the verification URL and registers the domain when it serves the register token (spec 3.2, 4.3).",
    body: {
      schema: named("FinishRegistrationRequest", FinishRegistrationBody),
      example: { domain_name: EXAMPLE_HOST, verifier: "9f86d081884c7d659a2feaa0c55ad015" },
    },
    response: [DOMAIN],
    errors: {
      400: "The domain check failed (the file is unreadable or wrong), the verification link expired, or the verifier names no registration of this domain.",
      429: "Repeated failed finish attempts: wait Retry-After seconds (spec 3.2, 7).",
    },
  },
  v2DeactivateDomain: {
    summary: "Deactivate a domain",
    returns: "`{status: ok}`.",
    description:
      "Not reversible: verify the domain again to reuse it. Webhooks are never deleted by this (spec 3.2).",
    response: [STATUS_OK],
    errors: {
      400: "The domain is not registered: never registered, already deactivated, or another organization's (spec 3.2, 7).",
      409: "An active webhook targets the domain: deactivate it first (spec 3.2, 7).",
    },
  },
  v1GetAuthentication: getSession("authentication"),
  v1LookupAuthentication: lookupAuthentication,
  v1SearchAuthentications: searchSessions("authentication"),
  v1GetFingerprint: getSession("fingerprint"),
  v1SearchFingerprints: searchSessions("fingerprint"),
  v2GetAuthentication: getSession("authentication"),
  v2LookupAuthentication: lookupAuthentication,
  v2SearchAuthentications: searchSessions("authentication"),
  v2GetFingerprint: getSession("fingerprint"),
  v2SearchFingerprints: searchSessions("fingerprint"),
  v2AuthorizeUser: {
    summary: "Authorize a mobile SDK user",
    returns:
      "`{signed_authorization_request, username}` (spec 2.8): hand the first to the SDK, and keep the username to search by `owner.user.username`.",
    description:
      "`unique_user_id`: 8 to 40 characters from `A-Z a-z 0-9 @ . + _ -`. The first call for a `unique_user_id` fixes its `first_name` and `last_name` for good (spec 5).",
    body: {
      schema: named("AuthorizeUserRequest", AuthorizeUserBody),
      example: {
        unique_user_id: "user-1042",
        email: "ann@example.com",
        sdk_authorization_request: "<what the SDK produced>",
        first_name: "Ann",
        last_name: null,
      },
    },
    response: [named("AuthorizedUser", AuthorizedUserSchema)],
  },
  v2CreateLoginVoucher: {
    summary: "Create a login voucher (legacy sign-in)",
    returns: "`{login_voucher, username}` (spec 2.8).",
    description: "Members beyond those listed are accepted (spec 4.3).",
    body: {
      schema: named("LoginVoucherRequest", LoginVoucherBody),
      example: { unique_user_id: "user-1042", email: "ann@example.com" },
    },
    response: [named("LoginVoucher", LoginVoucherSchema)],
  },
  v2AuthenticationConfig: {
    summary: "Get the authentication config of the token",
    returns:
      "`{config, iat, exp}` (spec 2.8): the brand and material options available to the token, valid from `iat` to `exp` (Unix seconds).",
    body: { schema: NO_PARAMETERS, optional: true },
    response: [named("AuthenticationConfig", AuthenticationConfigSchema)],
  },
  v2SupportedBrands: {
    summary: "List the supported brands and categories",
    returns: "`{categories}` (spec 2.8): the capture form's taxonomy, not item data.",
    body: { schema: NO_PARAMETERS, optional: true },
    response: [named("SupportedBrands", SupportedBrandsSchema)],
    errors: { 503: "The options are temporarily unavailable: retry (spec 7)." },
  },
};
