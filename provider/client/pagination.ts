import type { RequestInfo } from "../errors/base";
import { ResponseValidationError } from "../errors/transport";

/** One page of a listing. */
export interface Page<T> {
  /** The items of this page. */
  readonly items: T[];
  /** Pass it as `cursor` for the next page; null at the end. */
  readonly nextCursor: string | null;
}

/** Which page of a listing to read. */
export interface PageRequest {
  /** Items per page, within the generation's page-size range. */
  readonly limit?: number;
  /** The previous page's `nextCursor`; absent or null for the first page. */
  readonly cursor?: string | null;
}

/**
 * Every entry of every page, page after page from `first`, for any cursor-paginated route. Only the
 * page being read is held, so memory stays flat however long the listing; the cursors seen are kept,
 * because a cursor that comes back would page forever.
 */
export async function* paginate<T>(
  info: RequestInfo,
  first: string | null,
  fetchPage: (cursor: string | null) => Promise<Page<T>>,
): AsyncGenerator<T> {
  const seen = new Set<string>(first === null ? [] : [first]);
  let cursor = first;
  do {
    const page: Page<T> = await fetchPage(cursor);
    yield* page.items;
    cursor = page.nextCursor;
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
