/**
 * The quota's pure rules: how Webhooks are counted per organization (QuotaTally), how an organization is
 * told apart without keeping its token (organizationKey), and what the program is told.
 */
import * as fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_ACTIVE_WEBHOOKS } from "../../../contract/limits";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import { organizationKey } from "../../../provider/lifecycle/organization";
import {
  overQuotaCreateMessage,
  overQuotaMessage,
  replaceAtQuotaMessage,
} from "../../../provider/webhook/messages";
import { type Declared, overQuota, QuotaTally } from "../../../provider/webhook/quota";

beforeEach(() => {
  setProcessContext(new ProcessContext());
});

const TOKEN = "quota-rules-token-0123456789";
const names = (n: number) => Array.from({ length: n }, (_, i) => `hook-${i}`);

/** Declarations: ids from a small set (so that repeats happen), each always with the same organization. */
const declarations = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom("acme", "globex", "initech")), {
    maxLength: 60,
  })
  .map((pairs) =>
    pairs.map(
      ([n, organization]): Declared => ({ id: `${organization}/${n}`, name: `hook-${n}`, organization }),
    ),
  );

describe("the quota tally", () => {
  it("counts each Webhook once per organization, in any order and however often it is recorded", () => {
    fc.assert(
      fc.property(declarations, fc.integer({ min: 1, max: 5 }), (declared, chunk) => {
        const tally = new QuotaTally();
        for (let i = 0; i < declared.length; i += chunk) tally.record(declared.slice(i, i + chunk));
        for (const organization of ["acme", "globex", "initech"]) {
          const distinct = new Set(declared.filter((d) => d.organization === organization).map((d) => d.id));
          expect(tally.holding(organization).names).toHaveLength(distinct.size);
        }
        // Recording everything again changes nothing.
        const before = ["acme", "globex", "initech"].map((o) => tally.holding(o));
        tally.record([...declared].reverse());
        expect(["acme", "globex", "initech"].map((o) => tally.holding(o))).toEqual(before);
      }),
    );
  });

  it("answers, for each organization a record touches, everything it holds so far", () => {
    const tally = new QuotaTally();
    tally.record([{ id: "1", name: "a", organization: "acme" }]);
    expect(
      tally.record([
        { id: "2", name: "b", organization: "acme" },
        { id: "3", name: "c", organization: "globex" },
        { id: "4", name: "d", organization: "acme" },
      ]),
    ).toEqual([
      { organization: "acme", names: ["a", "b", "d"] },
      { organization: "globex", names: ["c"] },
    ]);
    expect(tally.holding("initech")).toEqual({ organization: "initech", names: [] });
  });

  it("is over the quota from the 11th Webhook of one organization on, never at 10", () => {
    const holding = (n: number) => ({ organization: "acme", names: names(n) });
    expect(overQuota(holding(MAX_ACTIVE_WEBHOOKS))).toBe(false);
    expect(overQuota(holding(MAX_ACTIVE_WEBHOOKS + 1))).toBe(true);
    expect(overQuota(holding(3), 2)).toBe(true);
  });
});

describe("the organization key", () => {
  const stack = { token: TOKEN, baseUrl: "http://127.0.0.1:8787" };

  it("is the same exactly when the base URL and token a client would use are the same", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("a-token-0123456789", "b-token-0123456789"),
        fc.constantFrom("https://api.example.com", "https://api.example.com/", "https://other.example.com"),
        fc.constantFrom("a-token-0123456789", "b-token-0123456789"),
        fc.constantFrom("https://api.example.com", "https://api.example.com//", "https://other.example.com"),
        (token1, base1, token2, base2) => {
          const same = token1 === token2 && base1.replace(/\/+$/, "") === base2.replace(/\/+$/, "");
          const key = (token: string, baseUrl: string) => organizationKey({ token, baseUrl }, {}, {});
          expect(key(token1, base1) === key(token2, base2)).toBe(same);
        },
      ),
    );
  });

  it("falls back as the client does: the connection, then the stack, then SERVICE_*, then the sandbox", () => {
    const env = { SERVICE_API_TOKEN: TOKEN, SERVICE_BASE_URL: "http://127.0.0.1:8787" };
    const viaStack = organizationKey(undefined, stack, {});
    expect(organizationKey({}, stack, {})).toBe(viaStack);
    expect(organizationKey({ token: "" }, stack, env)).toBe(viaStack);
    expect(organizationKey(undefined, {}, env)).toBe(viaStack);
    expect(organizationKey(undefined, { token: TOKEN }, {})).toBe(viaStack);
    expect(organizationKey({ token: "other-token-0123456789" }, stack, {})).not.toBe(viaStack);
    expect(organizationKey({ baseUrl: "https://api.example.com" }, stack, {})).not.toBe(viaStack);
  });

  it("holds no token, and differs from one process to the next", () => {
    const key = organizationKey(undefined, stack, {});
    expect(key).not.toContain(TOKEN);
    setProcessContext(new ProcessContext());
    expect(organizationKey(undefined, stack, {})).not.toBe(key);
  });
});

describe("what the program is told", () => {
  it("over the quota: the count, every name, what happened and the fix", () => {
    const eleven = names(11);
    const message = overQuotaMessage(eleven, { held: eleven }, "nodejs");
    expect(message).toContain("declares 11 Webhooks");
    expect(message).toContain(`at most ${MAX_ACTIVE_WEBHOOKS} active webhooks`);
    expect(message).toContain('"hook-0", "hook-1"');
    expect(message).toContain('"hook-9" and "hook-10"');
    expect(message).toContain("beyond the 10th (409)");
    expect(message).toContain("None of them was created.");
    expect(message).toContain("Remove 1 of them, or give some a `connection`");
    expect(overQuotaMessage(names(12), { held: ["hook-11"] }, "nodejs")).toContain(
      '"hook-11" was not created; the others were declared earlier',
    );
    expect(overQuotaMessage(eleven, { checkFailed: "hook-7" }, "python")).toContain(
      '"hook-7" is the one beyond the quota: its check fails.',
    );
    const create = overQuotaCreateMessage(12, "nodejs");
    expect(create).toMatch(/^Not created: this program declares 12 Webhooks/);
    expect(create).toContain("Remove 2 of them");
  });

  it("a replacement at the quota: the 11th slot, and deleteBeforeReplace as the program spells it", () => {
    const ts = replaceAtQuotaMessage("This Webhook", ["channel"], 10, true, "nodejs");
    expect(ts).toContain("This Webhook would be replaced (`channel` changed)");
    expect(ts).toContain("holds 10 Webhooks for its organization");
    expect(ts).toContain("needs an 11th slot");
    expect(ts).toContain("`deleteBeforeReplace: true`");
    expect(ts).not.toMatch(/unless/i);
    const py = replaceAtQuotaMessage('Webhook "orders"', ["secretKey", "apiVersion"], 10, false, "python");
    expect(py).toContain("(`secret_key`, `api_version` changed)");
    expect(py).toContain("Unless it sets `opts=pulumi.ResourceOptions(delete_before_replace=True)`");
    expect(py).toContain("cannot see resource options");
    const unknown = replaceAtQuotaMessage("This Webhook", ["endpoint"], 10, false, undefined);
    for (const spelling of ["deleteBeforeReplace: true", "delete_before_replace=True", "DeleteBeforeReplace"])
      expect(unknown).toContain(spelling);
  });
});
