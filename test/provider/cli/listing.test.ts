/**
 * The organization's listing, read by audit (provider/cli/listing.ts): a listing whose cursor comes back,
 * or whose page is larger than asked, is refused after one pass rather than taken as the whole listing.
 */
import { describe, expect, it } from "vitest";
import {
  fakeApi,
  hookResource,
  listedWebhook,
  stackResource,
  stateOf,
  useCliFolder,
} from "../../helpers/cli-inputs";

const { writeJson, auditAt } = useCliFolder("cli-listing-");

describe("a listing an attacker's API answers (regression)", () => {
  it("refuses a listing whose cursor comes back, or whose page is larger than asked, after one pass", async () => {
    const state = writeJson(
      "cursor.json",
      stateOf([stackResource("dev"), hookResource("dev", "kept", "u-kept")]),
    );
    const looping = await fakeApi(() => ({ items: [listedWebhook("u-kept")], next_cursor: "c1" }));
    const loop = await auditAt(looping.url, state, ["--json"]);
    expect(loop.code).toBe(2);
    expect(loop.stderr).toBe(
      'infra/dev: listing the organization\'s webhooks failed: the cursor "c1" came back a second time, so it cannot be taken as the whole listing: run again, and report it if it persists.\n',
    );
    expect(looping.seen).toHaveLength(2);
    const large = await fakeApi(() => ({
      items: Array.from({ length: 21 }, (_, i) => listedWebhook(`u-${i}`)),
      next_cursor: null,
    }));
    const big = await auditAt(large.url, state);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(
      /a page held 21 items, more than the 20 asked for, so it cannot be taken as the whole listing/,
    );
  });
});
