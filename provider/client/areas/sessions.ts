import type { SessionKind } from "../../../contract/kinds";
import { type RouteName, VERSIONED } from "../../../contract/routes";
import { SESSION_ANSWERS, ServiceIdPageSchema, type SessionItems } from "../../../contract/sessions/answers";
import { IMAGE_QUERY_PARAMS, searchBodySchema } from "../../../contract/sessions/requests";
import type {
  ImageOptions,
  ItemAnswer,
  ItemPage,
  SearchImageOptions,
  ServiceIdPage,
  SessionSearch,
} from "../../../contract/sessions/types";
import { type ApiVersion, type ImageFlag, VERSION_TRAITS } from "../../../contract/versions";
import type { RequestInfo } from "../../errors/base";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import { paginate } from "../pagination";
import { type OptionProblem, RequestValidationError } from "../validation";

/**
 * The session reads of ServiceClient (spec 4.2 and 4.3): GET, lookup and search of authentications
 * and fingerprints, in the client's API version. Requests are checked with the shared rules of
 * contract/sessions/requests.ts before they are sent; answers are read with contract/sessions/answers.ts.
 */

/** How GET and lookup take each image flag: as its query parameter (spec 2.5). */
const QUERY_OPTIONS = IMAGE_QUERY_PARAMS as Readonly<Record<ImageFlag, keyof ImageOptions>>;

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

const SEARCH_ROUTES: Readonly<Record<SessionKind, Readonly<Record<ApiVersion, RouteName>>>> = {
  authentication: VERSIONED.searchAuthentications,
  fingerprint: VERSIONED.searchFingerprints,
};

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

async function readItem<K extends SessionKind>(
  api: Requester,
  kind: K,
  name: RouteName,
  params: Record<string, string>,
  options: ImageOptions,
): Promise<ItemAnswer<SessionItems[K]>> {
  const values = {
    return_item_photos: options.format_options__return_item_photos,
    include_images: options.include_images,
  };
  const flags = imageFlags(api.version, kind, values, QUERY_OPTIONS, routeInfo(name));
  const query = Object.fromEntries(flags.map((flag) => [IMAGE_QUERY_PARAMS[flag], "true"]));
  return api.send(name, { params, query, schema: SESSION_ANSWERS[kind][api.version].one });
}

/** GET of one session of the caller's organization by its id. */
export async function getSession<K extends SessionKind>(
  api: Requester,
  kind: K,
  serviceId: string,
  options: ImageOptions = {},
): Promise<ItemAnswer<SessionItems[K]>> {
  const routes = kind === "authentication" ? VERSIONED.getAuthentication : VERSIONED.getFingerprint;
  return readItem(api, kind, routes[api.version], { service_id: serviceId }, options);
}

/** Lookup of an authentication by the caller's customer item id. */
export async function lookupAuthentication(
  api: Requester,
  customerItemId: string,
  options: ImageOptions = {},
): Promise<ItemAnswer<SessionItems["authentication"]>> {
  const name = VERSIONED.lookupAuthentication[api.version];
  return readItem(api, "authentication", name, { lookup_value: customerItemId }, options);
}

/**
 * The body of a search, checked against the shared rules of its route: the filter keys of v1.4, the
 * identifier-needs-brand rule, one of value or values on v1.4, the page size, the image flags the route
 * reads, control characters. It is sent as given: undefined members vanish when it is serialised.
 */
function searchBody(version: ApiVersion, kind: SessionKind, search: SessionSearch, info: RequestInfo) {
  if (search.return !== "service_ids") imageFlags(version, kind, bodyFlags(search), BODY_OPTIONS, info);
  checkRequest(searchBodySchema(version, kind), search, info);
  return search;
}

/** One page of a search; its envelope follows `return`. */
export async function searchSessions<K extends SessionKind>(
  api: Requester,
  kind: K,
  search: SessionSearch,
): Promise<ItemPage<SessionItems[K]> | ServiceIdPage> {
  const name = SEARCH_ROUTES[kind][api.version];
  const body = searchBody(api.version, kind, search, routeInfo(name));
  return search.return === "service_ids"
    ? api.send(name, { body, schema: ServiceIdPageSchema })
    : api.send(name, { body, schema: SESSION_ANSWERS[kind][api.version].page });
}

/**
 * Every entry of a search, page after page from `search.cursor` (the first page when absent): items,
 * or ids with `return: "service_ids"`.
 */
export function iterateSessions<K extends SessionKind>(
  api: Requester,
  kind: K,
  search: SessionSearch,
): AsyncIterable<SessionItems[K] | string> {
  return paginate<SessionItems[K] | string>(
    routeInfo(SEARCH_ROUTES[kind][api.version]),
    search.cursor ?? null,
    async (cursor) => {
      const page = await searchSessions(api, kind, { ...search, cursor });
      return "service_ids" in page
        ? { entries: page.service_ids, next_cursor: page.next_cursor }
        : { entries: page.items, next_cursor: page.next_cursor };
    },
  );
}
