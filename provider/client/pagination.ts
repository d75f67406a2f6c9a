import type { z } from "zod";
import { listPageBodySchema } from "../../contract/pages";
import type { Route, Versioned } from "../../contract/routes";
import type { RequestInfo } from "../errors/base";
import { ResponseValidationError } from "../errors/transport";
import { type Requester, routeInfo } from "./call";
import { checkRequest } from "./check";
import type { Page, PageOf, PageRequest } from "./pages";
import { request } from "./request";

/**
 * Every entry of every page, page after page from `first`, for any cursor-paginated route. Only the
 * page being read is held, so memory stays flat however long the listing; the cursors seen are kept,
 * because a cursor that comes back would page forever.
 */
export async function* paginate<T>(
  info: RequestInfo,
  first: string | null,
  fetchPage: (cursor: string | null) => Promise<PageOf<T>>,
): AsyncGenerator<T> {
  // `first` is null for the first page; null is never looked up, since the loop ends on a null cursor.
  const seen = new Set<string | null>([first]);
  let cursor = first;
  do {
    const page: PageOf<T> = await fetchPage(cursor);
    yield* page.entries;
    cursor = page.next_cursor;
    if (cursor !== null) {
      if (seen.has(cursor)) {
        throw new ResponseValidationError(
          info,
          `the cursor ${JSON.stringify(cursor)} came back a second time, which would page forever`,
        );
      }
      seen.add(cursor);
    }
  } while (cursor !== null);
}

/** A list envelope schema whose page holds `T`s. */
type ListSchema<T> = z.ZodType<Page<T>, unknown>;

/** One page of a webhook or domain search, its body checked with the page rule of the route's generation. */
async function listPage<T>(
  api: Requester,
  route: Route,
  page: PageRequest,
  schema: ListSchema<T>,
): Promise<Page<T>> {
  const body = checkRequest(listPageBodySchema(api.version), page, routeInfo(route));
  return request(api, route, { body, schema });
}

/** Every entry of a webhook or domain search, page after page. */
function iterateList<T>(
  api: Requester,
  route: Route,
  page: Omit<PageRequest, "cursor">,
  schema: ListSchema<T>,
): AsyncIterable<T> {
  return paginate(routeInfo(route), null, async (cursor) => {
    const out = await listPage(api, route, { ...page, cursor }, schema);
    return { entries: out.items, next_cursor: out.next_cursor };
  });
}

/** The search and the iteration of one listing (webhooks or domains), on the route of each generation. */
export interface Listing<T> {
  /** One page, `{items, item_count, next_cursor}`. */
  list(api: Requester, page?: PageRequest): Promise<Page<T>>;
  /** Every entry, page after page. */
  iterate(api: Requester, page?: Omit<PageRequest, "cursor">): AsyncIterable<T>;
}

/** The listing whose route per generation is `routes` and whose pages `schema` reads. */
export function listingOf<T>(routes: Versioned, schema: ListSchema<T>): Listing<T> {
  return {
    list: (api, page = {}) => listPage(api, routes[api.version], page, schema),
    iterate: (api, page = {}) => iterateList(api, routes[api.version], page, schema),
  };
}
