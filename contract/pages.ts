import { z } from "zod";
import { safeString } from "./control-characters";
import { memoize } from "./memo";
import { type ApiVersion, type PageRule, VERSION_TRAITS } from "./versions";

/**
 * The paging members every search body shares: `limit` under its generation's rule and an opaque
 * `cursor`. The page sizes themselves live in versions.ts.
 */

/** `limit`: an integer under `rule`, null or absent for the default; above the maximum capped or refused. */
export function pageLimitSchema(rule: PageRule) {
  const range = `must be an integer from ${rule.min} to ${rule.max}`;
  const integer = z.number(range).int(range).min(rule.min, range);
  const limit =
    rule.aboveMax === "cap" ? integer.transform((n) => Math.min(n, rule.max)) : integer.max(rule.max, range);
  return limit.nullish().transform((n) => n ?? rule.default);
}

/** `cursor`: the previous page's `next_cursor`, or null (or absent) for the first page. */
export const PageCursor = safeString()
  .min(1, "must not be empty; send null for the first page")
  .nullish()
  .transform((c) => c ?? null);

/** The body of webhook and domain search: `{limit, cursor}`, both optional, extra members ignored. */
export const listPageBodySchema = memoize((version: ApiVersion) =>
  z.preprocess(
    (body) => body ?? {},
    z.looseObject({ limit: pageLimitSchema(VERSION_TRAITS[version].listPage), cursor: PageCursor }),
  ),
);
