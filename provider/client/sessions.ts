import type { z } from "zod";
import type { SessionKind } from "../api/kinds";
import { type RouteName, VERSIONED } from "../api/routes";
import { SESSION_ANSWERS, ServiceIdPageSchema, type SessionItems } from "../api/session-answers";
import type {
  ImageOptions,
  ItemAnswer,
  ItemPage,
  ServiceIdPage,
  SessionSearch,
  SessionSearchFilter,
} from "../api/session-shapes";
import { IMAGE_QUERY_PARAMS, searchBodySchema, type searchFilterSchema } from "../api/sessions";
import { type ApiVersion, type ImageFlag, VERSION_TRAITS } from "../api/versions";
import type { RequestInfo } from "../errors/base";
import { type Requester, routeInfo } from "./call";
import { checkRequest } from "./check";
import { paginate } from "./pagination";
import { type OptionProblem, RequestValidationError } from "./validation";

/**
 * The session reads of ServiceClient (spec 4.2 and 4.3): GET, lookup and search of authentications
 * and fingerprints, in the client's API version. Requests are checked with the shared rules of
 * api/sessions.ts before they are sent; answers are read with api/session-answers.ts.
 */

/** The client option of each image flag (spec 2.5). */
const IMAGE_OPTIONS: Readonly<Record<ImageFlag, keyof ImageOptions>> = {
  return_item_photos: "returnItemPhotos",
  include_images: "includeImages",
};

const SEARCH_ROUTES: Readonly<Record<SessionKind, Readonly<Record<ApiVersion, RouteName>>>> = {
  authentication: VERSIONED.searchAuthentications,
  fingerprint: VERSIONED.searchFingerprints,
};

/**
 * The image flags `options` turns on. A flag the route does not read in this API version (any flag of
 * v1.4 fingerprints, `includeImages` on v1.4) is refused rather than silently ignored.
 */
function imageFlags(version: ApiVersion, kind: SessionKind, options: ImageOptions, info: RequestInfo) {
  const reads = VERSION_TRAITS[version].imageFlags[kind];
  const problems: OptionProblem[] = [];
  const asked: ImageFlag[] = [];
  for (const [flag, option] of Object.entries(IMAGE_OPTIONS) as [ImageFlag, keyof ImageOptions][]) {
    const value: unknown = options[option];
    if (value === undefined || value === false) continue;
    if (value !== true) {
      problems.push({ field: option, message: "must be true or false" });
    } else if (!reads.includes(flag)) {
      const instead =
        reads.length > 0
          ? `it reads only ${reads.map((f) => IMAGE_OPTIONS[f]).join(" and ")}`
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
  const flags = imageFlags(api.version, kind, options, routeInfo(name));
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

/** A filter as the wire and the shared filter rule name its members. */
function wireFilter(filter: SessionSearchFilter): z.input<ReturnType<typeof searchFilterSchema>> {
  return {
    key: filter.key,
    value: filter.value,
    values: filter.values === undefined ? undefined : [...filter.values],
    exclude: filter.exclude,
    text_fields: filter.textFields,
  };
}

/**
 * The wire body of a search, checked against the shared rules of its route: the filter keys of v1.4,
 * the identifier-needs-brand rule, one of value or values on v1.4, the page size, control characters.
 * Undefined members vanish when the body is serialised, so the service sees only what was given.
 */
function searchBody(version: ApiVersion, kind: SessionKind, search: SessionSearch, info: RequestInfo) {
  const images = search.return === "service_ids" ? [] : imageFlags(version, kind, search, info);
  const body = {
    filters: search.filters?.map(wireFilter),
    range: search.range,
    limit: search.limit,
    cursor: search.cursor,
    return: search.return,
    ...(images.includes("include_images") ? { include_images: true } : {}),
    ...(images.includes("return_item_photos") ? { format_options: { return_item_photos: true } } : {}),
  };
  checkRequest(searchBodySchema(version, kind), body, info);
  return body;
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
      return "serviceIds" in page ? { items: page.serviceIds, nextCursor: page.nextCursor } : page;
    },
  );
}
