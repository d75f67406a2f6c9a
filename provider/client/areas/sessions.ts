import type { SessionKind } from "../../../contract/kinds";
import { NOTE, type Route, readOnly, type Versioned, v1, v2 } from "../../../contract/routes";
import type {
  AuthenticationItem,
  ImageOptions,
  ItemAnswer,
  ItemPage,
  ItemSearch,
  SearchImageOptions,
  ServiceIdPage,
  ServiceIdSearch,
  SessionItems,
  SessionSearch,
} from "../../../contract/sessions/types";
import { type ApiVersion, type ImageFlag, VERSION_TRAITS } from "../../../contract/versions";
import type { RequestInfo } from "../../errors/base";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import { paginate } from "../pagination";
import { request } from "../request";
import { type OptionProblem, RequestValidationError } from "../validation";

/** The session routes (spec 4.2 and 4.3); the sandbox mounts its handlers on the same ones. */
export const SESSION_ROUTES = {
  v1GetAuthentication: v1("GET", "/v1/authentications/{service_id}"),
  v1LookupAuthentication: v1("GET", "/v1/lookup/authentications/{lookup_value}"),
  v1SearchAuthentications: v1("POST", "/v1/search/authentications", readOnly),
  v1GetFingerprint: v1("GET", "/v1/fingerprints/{service_id}"),
  v1SearchFingerprints: v1("POST", "/v1/search/fingerprints", readOnly),
  v2GetAuthentication: v2("GET", "/v2/authentications/{service_id}"),
  v2LookupAuthentication: v2("GET", "/v2/lookup/authentications/{lookup_value}"),
  v2SearchAuthentications: v2("POST", "/v2/search/authentications", readOnly),
  v2GetFingerprint: v2("GET", "/v2/fingerprints/{service_id}", { inferred: NOTE }),
  v2SearchFingerprints: v2("POST", "/v2/search/fingerprints", { ...readOnly, inferred: NOTE }),
} as const;

const R = SESSION_ROUTES;

/** The GET and search routes of each kind of session, in each generation. */
const KIND_ROUTES: Readonly<Record<SessionKind, { readonly get: Versioned; readonly search: Versioned }>> = {
  authentication: {
    get: { "1.4": R.v1GetAuthentication, "2.0": R.v2GetAuthentication },
    search: { "1.4": R.v1SearchAuthentications, "2.0": R.v2SearchAuthentications },
  },
  fingerprint: {
    get: { "1.4": R.v1GetFingerprint, "2.0": R.v2GetFingerprint },
    search: { "1.4": R.v1SearchFingerprints, "2.0": R.v2SearchFingerprints },
  },
};

/*
 * The sessions' request and response schemas load at the first call: the provider's lifecycles, which
 * load this client in every dynamic-provider host and plugin process, never read a session, and these
 * schemas are most of what building the client's module graph costs.
 */
const requests = () => import("../../../contract/sessions/requests.js");
const responses = () => import("../../../contract/sessions/responses.js");

/** How a search takes each image flag: as its body member (spec 2.5). */
const BODY_OPTIONS: Readonly<Record<ImageFlag, string>> = {
  return_item_photos: "format_options.return_item_photos",
  include_images: "include_images",
};

/** The flags a search body turns on, by flag, whatever else the body holds. */
function bodyFlags(search: SearchImageOptions): Readonly<Record<ImageFlag, unknown>> {
  return {
    return_item_photos: search.format_options?.return_item_photos,
    include_images: search.include_images,
  };
}

/**
 * The image flags `options` turns on. A flag the route does not read in this API version (any flag of
 * v1.4 fingerprints, `includeImages` on v1.4) is refused rather than silently ignored.
 */
function imageFlags(
  version: ApiVersion,
  kind: SessionKind,
  values: Readonly<Record<ImageFlag, unknown>>,
  names: Readonly<Record<ImageFlag, string>>,
  info: RequestInfo,
) {
  const reads = VERSION_TRAITS[version].imageFlags[kind];
  const problems: OptionProblem[] = [];
  const asked: ImageFlag[] = [];
  for (const flag of Object.keys(names) as ImageFlag[]) {
    const option = names[flag];
    const value = values[flag];
    if (value === undefined || value === null || value === false) continue;
    if (value !== true) {
      problems.push({ field: option, message: "must be true or false" });
    } else if (!reads.includes(flag)) {
      const instead =
        reads.length > 0
          ? `it reads only ${reads.map((f) => names[f]).join(" and ")}`
          : "it reads no image flag";
      problems.push({
        field: option,
        message: `is not available for ${kind}s on API ${version} (spec 2.5: ${instead}); use a client with apiVersion "2.0"`,
      });
    } else {
      asked.push(flag);
    }
  }
  if (problems.length > 0) throw new RequestValidationError(info, problems);
  return asked;
}

/**
 * The sessions of one kind (authentications or fingerprints), in the client's API version: GET and
 * search. Requests are checked with the shared rules of contract/sessions/requests.ts before they are
 * sent; responses are read with contract/sessions/responses.ts.
 */
class Sessions<K extends SessionKind> {
  /**
   * The client's pipeline, which every method sends through; for the subclasses' own routes.
   *
   * @internal
   */
  protected readonly api: Requester;

  /**
   * @param api the client's pipeline, which every method sends through
   * @param kind which sessions this object reads
   */
  constructor(
    api: Requester,
    private readonly kind: K,
  ) {
    this.api = api;
  }

  /**
   * One session of the organization by its id, with the warnings the service sent beside it.
   * NotFoundError (403) when it is unknown or another organization's.
   *
   * @example const { item, warnings } = await client.fingerprints.retrieve("9c1e…", { include_images: true });
   */
  retrieve(serviceId: string, options: ImageOptions = {}): Promise<ItemAnswer<SessionItems[K]>> {
    const route = KIND_ROUTES[this.kind].get[this.api.version];
    return this.readItem(route, { service_id: serviceId }, options);
  }

  /**
   * GET or lookup of one item, with the image flags of `options` as query parameters.
   *
   * @internal
   */
  protected async readItem(
    route: Route,
    params: Record<string, string>,
    options: ImageOptions,
  ): Promise<ItemAnswer<SessionItems[K]>> {
    const { api, kind } = this;
    const { IMAGE_QUERY_PARAMS } = await requests();
    const { SESSION_RESPONSES } = await responses();
    const values = {
      return_item_photos: options.format_options__return_item_photos,
      include_images: options.include_images,
    };
    const names = IMAGE_QUERY_PARAMS as Readonly<Record<ImageFlag, keyof ImageOptions>>;
    const flags = imageFlags(api.version, kind, values, names, routeInfo(route));
    const query = Object.fromEntries(flags.map((flag) => [IMAGE_QUERY_PARAMS[flag], "true"]));
    return request(api, route, { params, query, schema: SESSION_RESPONSES[kind][api.version].one });
  }

  /**
   * One page of a search (at most 25), newest first, with the page's warnings. Pass the page's
   * `next_cursor` as `cursor` for the next one, or use `iterate()` to read them all. The body is checked
   * against the rules of its route: the filter keys of v1.4, the identifier-needs-brand rule, one of
   * value or values on v1.4, the page size, the image flags the route reads, control characters.
   *
   * @example const page = await client.authentications.list({ filters: [{ key: "status.result.id", value: "authentic" }] });
   */
  list(search?: ItemSearch): Promise<ItemPage<SessionItems[K]>>;
  /** One page of the ids of the sessions a search selects. */
  list(search: ServiceIdSearch): Promise<ServiceIdPage>;
  /** One page of a search whose `return` is only known at run time. */
  list(search: SessionSearch): Promise<ItemPage<SessionItems[K]> | ServiceIdPage>;
  async list(search: SessionSearch = {}): Promise<ItemPage<SessionItems[K]> | ServiceIdPage> {
    const { api, kind } = this;
    const { searchBodySchema } = await requests();
    const { SESSION_RESPONSES, ServiceIdPageSchema } = await responses();
    const route = KIND_ROUTES[kind].search[api.version];
    const info = routeInfo(route);
    if (search.return !== "service_ids") imageFlags(api.version, kind, bodyFlags(search), BODY_OPTIONS, info);
    // Sent as given: undefined members vanish when it is serialised.
    checkRequest(searchBodySchema(api.version, kind), search, info);
    return search.return === "service_ids"
      ? request(api, route, { body: search, schema: ServiceIdPageSchema })
      : request(api, route, { body: search, schema: SESSION_RESPONSES[kind][api.version].page });
  }

  /**
   * Every session a search selects, item by item, fetching one page at a time (from `cursor` when given,
   * to resume). Warnings beside the items are on the pages of `list`.
   *
   * @example for await (const item of client.authentications.iterate()) console.log(item.service_id);
   */
  iterate(search?: ItemSearch): AsyncIterable<SessionItems[K]>;
  /** Every id of the sessions a search selects (`return: "service_ids"`), page after page. */
  iterate(search: ServiceIdSearch): AsyncIterable<string>;
  /** Every item, or every id, of a search whose `return` is only known at run time. */
  iterate(search: SessionSearch): AsyncIterable<SessionItems[K] | string>;
  iterate(search: SessionSearch = {}): AsyncIterable<SessionItems[K] | string> {
    return paginate<SessionItems[K] | string>(
      routeInfo(KIND_ROUTES[this.kind].search[this.api.version]),
      search.cursor ?? null,
      async (cursor) => {
        const page = await this.list({ ...search, cursor });
        return "service_ids" in page
          ? { entries: page.service_ids, next_cursor: page.next_cursor }
          : { entries: page.items, next_cursor: page.next_cursor };
      },
    );
  }
}

/** The organization's authentications, as `client.authentications`. */
export class Authentications extends Sessions<"authentication"> {
  /** @param api the client's pipeline, which every method sends through */
  constructor(api: Requester) {
    super(api, "authentication");
  }

  /**
   * The authentication of a customer item id (your order id or SKU): on API 1.4 the first one with a
   * final result, else the latest; on API 2.0 the latest. NotFoundError (403) when there is none.
   *
   * @example const { item } = await client.authentications.lookup("SKU-1042");
   */
  lookup(customerItemId: string, options: ImageOptions = {}): Promise<ItemAnswer<AuthenticationItem>> {
    const route = this.api.version === "1.4" ? R.v1LookupAuthentication : R.v2LookupAuthentication;
    return this.readItem(route, { lookup_value: customerItemId }, options);
  }
}

/**
 * The organization's fingerprints, as `client.fingerprints`. A compare fingerprint whose parent the
 * organization no longer owns has `fingerprint_parent: {}` and a `fingerprint_parent_not_authorized`
 * warning.
 */
export class Fingerprints extends Sessions<"fingerprint"> {
  /** @param api the client's pipeline, which every method sends through */
  constructor(api: Requester) {
    super(api, "fingerprint");
  }
}
