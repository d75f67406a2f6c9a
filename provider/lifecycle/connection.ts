/**
 * `connection` and `acceptLanguage`, the members every resource takes that change nothing on the
 * service: a change to them is an update in place, and outputs carry them so that delete and refresh
 * use the same credentials.
 */

import type { ResourceProps } from "./methods";

/** `base` with its `connection` and `acceptLanguage` replaced by those of `news` (absent ones dropped). */
export function withConnection<T extends object>(base: T, news: ResourceProps): T {
  const { connection: _c, acceptLanguage: _l, ...rest } = base as T & ResourceProps;
  return {
    ...rest,
    ...(news.connection ? { connection: news.connection } : {}),
    ...(news.acceptLanguage ? { acceptLanguage: news.acceptLanguage } : {}),
  } as T;
}
