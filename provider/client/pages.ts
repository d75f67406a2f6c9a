// The page types of the public client, in a module without zod: the client's entry re-exports them, and
// a module that imports zod would make every consumer's type check load zod's declarations.

/** One page of a webhook or domain listing: the list envelope of spec 4.1. */
export interface Page<T> {
  /** The items of this page. */
  readonly items: T[];
  /** The number of items on this page, as the service counted them. */
  readonly item_count: number;
  /** Pass it as `cursor` for the next page; null at the end. */
  readonly next_cursor: string | null;
}

/** What `paginate` needs of a page: its entries and the cursor of the next one. */
export interface PageOf<T> {
  readonly entries: readonly T[];
  readonly next_cursor: string | null;
}

/** Which page of a listing to read. */
export interface PageRequest {
  /** Items per page, within the generation's page-size range. */
  readonly limit?: number;
  /** The previous page's `next_cursor`; absent or null for the first page. */
  readonly cursor?: string | null;
}
