/** The quota of active webhooks (provider/webhook/quota.ts): counted per organization, in the program and in the provider plugin's checks. */

import * as pulumi from "@pulumi/pulumi";
import * as fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_ACTIVE_WEBHOOKS } from "../../../contract/limits";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import type { ServiceError } from "../../../provider/errors/base";
import { organizationKey } from "../../../provider/lifecycle/organization";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { resolve } from "../../../provider/settings/resolve";
import { webhookLifecycle } from "../../../provider/webhook/declaration";
import {
  overQuotaCreateMessage,
  overQuotaMessage,
  replaceAtQuotaMessage,
} from "../../../provider/webhook/messages";
import {
  type Declared,
  overQuota,
  QUOTA_INPUT,
  type QuotaInput,
  QuotaTally,
  quotaInput,
} from "../../../provider/webhook/quota";
import { check as checkWith } from "../../../provider/webhook/resource";
import { HOOKS_TOKEN, OTHER_TOKEN, ROTATED_TOKEN, webhookArgs } from "../../helpers/fixtures";
import { mockedPulumi, settled } from "../../helpers/mocks";
import { configureStack, underProvider } from "../../helpers/runtime";
import { useRegisteredWorld } from "../../helpers/world";

const { check } = underProvider({ check: checkWith });

const webhook = underProvider(webhookLifecycle);

/**
 * The quota's pure rules: how Webhooks are counted per organization (QuotaTally), how an organization is
 * told apart without keeping its token (organizationKey), and what the program is told.
 */
describe("the tally and what it tells", () => {
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
            const distinct = new Set(
              declared.filter((d) => d.organization === organization).map((d) => d.id),
            );
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
          fc.constantFrom(
            "https://api.example.com",
            "https://api.example.com//",
            "https://other.example.com",
          ),
          (token1, base1, token2, base2) => {
            const same = token1 === token2 && base1.replace(/\/+$/, "") === base2.replace(/\/+$/, "");
            const key = (token: string, baseUrl: string) =>
              organizationKey({ token, baseUrl }, {}, resolve({ env: {} }));
            expect(key(token1, base1) === key(token2, base2)).toBe(same);
          },
        ),
      );
    });

    it("falls back as the client does: the connection, then the stack, then SERVICE_*, then the sandbox", () => {
      const env = { SERVICE_API_TOKEN: TOKEN, SERVICE_BASE_URL: "http://127.0.0.1:8787" };
      const viaStack = organizationKey(undefined, stack, resolve({ env: {} }));
      expect(organizationKey({}, stack, resolve({ env: {} }))).toBe(viaStack);
      expect(organizationKey({ token: "" }, stack, resolve({ env }))).toBe(viaStack);
      expect(organizationKey(undefined, {}, resolve({ env }))).toBe(viaStack);
      expect(organizationKey(undefined, { token: TOKEN }, resolve({ env: {} }))).toBe(viaStack);
      expect(organizationKey({ token: "other-token-0123456789" }, stack, resolve({ env: {} }))).not.toBe(
        viaStack,
      );
      expect(organizationKey({ baseUrl: "https://api.example.com" }, stack, resolve({ env: {} }))).not.toBe(
        viaStack,
      );
    });

    it("holds no token, and differs from one process to the next", () => {
      const key = organizationKey(undefined, stack, resolve({ env: {} }));
      expect(key).not.toContain(TOKEN);
      setProcessContext(new ProcessContext());
      expect(organizationKey(undefined, stack, resolve({ env: {} }))).not.toBe(key);
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
      for (const spelling of [
        "deleteBeforeReplace: true",
        "delete_before_replace=True",
        "DeleteBeforeReplace",
      ])
        expect(unknown).toContain(spelling);
    });
  });
});

/**
 * The quota counted in a TypeScript program, under setMocks: each Webhook's registration waits on its
 * quota input, which settles once the program's turn is over, with what its check is to be told: every Webhook of an
 * organization with more than 10 gets one refusal naming them all, and at 10 each Webhook without
 * deleteBeforeReplace is told so.
 */
describe("counted in the program", () => {
  const names = (n: number, prefix = "hook") => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  /** A new run of a program: new mocks (a new resource monitor), the stack's token set. */
  function newRun() {
    pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
      "quota",
      "dev",
      true,
    );
    pulumi.runtime.setConfig("service:token", HOOKS_TOKEN);
  }

  /** What each Webhook's check is told, once the turn is counted. */
  const outcomes = (inputs: Promise<QuotaInput | undefined>[]) => Promise.all(inputs);

  beforeEach(() => {
    setProcessContext(new ProcessContext());
    newRun();
  });

  describe("the quota inputs of one run of a program", () => {
    it("refuse every Webhook of an organization with eleven, with one message naming them all", async () => {
      const told = await outcomes(
        names(11).map((name, i) => quotaInput(name, undefined, { deleteBeforeReplace: i === 0 })),
      );
      expect(new Set(told.map((t) => t?.refusal)).size).toBe(1);
      expect(told.every((t) => t?.holds === 11)).toBe(true);
      const refusal = told[0]!.refusal!;
      expect(refusal).toContain("This program declares 11 Webhooks");
      expect(refusal).toContain('"hook-0", "hook-1"');
      expect(refusal).toContain("None of them was created.");
      expect(refusal).not.toContain(HOOKS_TOKEN);
    });

    it("let ten through, telling those without deleteBeforeReplace that the organization is at the quota", async () => {
      const inputs = names(10).map((name, i) =>
        quotaInput(name, undefined, { deleteBeforeReplace: i === 0 }),
      );
      expect(await outcomes(inputs)).toEqual([undefined, ...names(9).map(() => ({ holds: 10 }))]);
      newRun();
      expect(await outcomes(names(9).map((name) => quotaInput(name, undefined, {})))).toEqual(
        names(9).map(() => undefined),
      );
    });

    it("count organizations apart, by the credentials a client would use, secret or plain", async () => {
      const inputs = [
        ...names(7, "stack").map((name) => quotaInput(name, undefined, {})),
        ...names(3, "same").map((name) => quotaInput(name, pulumi.secret({ token: HOOKS_TOKEN }), {})),
        // An Output inside, as a JavaScript program may pass it.
        ...names(10, "globex").map((name) =>
          quotaInput(name, { token: pulumi.secret(OTHER_TOKEN) } as never, {}),
        ),
      ];
      expect(await outcomes(inputs)).toEqual(inputs.map(() => ({ holds: 10 })));
      const [eleventh] = await outcomes([quotaInput("one-more", { token: HOOKS_TOKEN }, {})]);
      expect(eleventh?.refusal).toContain(
        '"one-more" was not created; the others were declared earlier and went ahead.',
      );
    });

    it("leave out a Webhook whose credentials are not known when the turn ends", async () => {
      let resolveLater: (token: string) => void = () => {};
      const later = pulumi.output(new Promise<string>((resolve) => (resolveLater = resolve)));
      const inputs = [
        ...names(10).map((name) => quotaInput(name, undefined, {})),
        quotaInput(
          "later",
          later.apply((token) => ({ token })),
          {},
        ),
      ];
      const told = await outcomes(inputs);
      expect(told.at(-1)).toBeUndefined();
      expect(told.slice(0, -1)).toEqual(names(10).map(() => ({ holds: 10 })));
      resolveLater(HOOKS_TOKEN);
    });

    it("start afresh in each run (the Automation API runs programs one after another in one process)", async () => {
      await outcomes(names(10).map((name) => quotaInput(name, undefined, {})));
      newRun();
      const again = await outcomes(names(10).map((name) => quotaInput(name, undefined, {})));
      expect(again.every((t) => t?.refusal === undefined)).toBe(true);
    });
  });

  describe("the Webhook class", () => {
    it("registers a program's ten Webhooks, those without deleteBeforeReplace told that the organization is at the quota", async () => {
      const { pulumi: sdk, service, registered } = mockedPulumi({ config: { "service:token": HOOKS_TOKEN } });
      const hooks = names(10).map(
        (name, i) =>
          new service.Webhook(name, webhookArgs({ channel: name }), { deleteBeforeReplace: i === 0 }),
      );
      await settled(
        sdk,
        hooks.map((h) => h.urn),
      );
      const inputs = registered.filter((r) => r.type.endsWith(":Webhook")).map((r) => r.inputs);
      expect(inputs).toHaveLength(10);
      expect(inputs[0]).not.toHaveProperty(QUOTA_INPUT);
      for (const i of inputs.slice(1)) expect(i[QUOTA_INPUT]).toEqual({ holds: 10 });
    });
  });
});

/**
 * The quota in a Webhook's check, as the engine calls it: the at-quota input a TypeScript program sends
 * (a replacement then fails), and the count the provider plugin keeps from the URNs it checks (the check
 * that goes beyond the quota fails; a replacement at the quota is warned of; a create of an organization
 * over the quota is refused before any call).
 */
describe("counted by the checks", () => {
  const worldRef = useRegisteredWorld();
  const urn = (name: string) => `urn:pulumi:dev::infra::service:index:Webhook::${name}`;

  beforeEach(() => {
    configureStack(worldRef.current.sandbox.url);
  });

  /** The inputs a Webhook was created with, as the engine passes them back to the next check. */
  async function previous(overrides: Record<string, unknown> = {}) {
    return (await check({}, webhookArgs(overrides))).inputs;
  }

  describe("a Webhook's check, told by its program how many Webhooks its organization has", () => {
    it("fails a replacement: it needs an 11th slot, and deleteBeforeReplace frees it", async () => {
      const olds = await previous({ channel: "orders" });
      const result = await check(olds, {
        ...webhookArgs({ channel: "orders-v2" }),
        [QUOTA_INPUT]: { holds: 10 },
      });
      expect(result.failures).toEqual([
        {
          property: "",
          reason: expect.stringContaining("This Webhook would be replaced (`channel` changed)"),
        },
      ]);
      expect(result.failures[0]!.reason).toContain("needs an 11th slot");
      expect(result.failures[0]!.reason).toContain("`deleteBeforeReplace: true`");
      expect(result.inputs).not.toHaveProperty(QUOTA_INPUT);
    });

    it("passes a create, an unchanged Webhook and a change in place; never keeps the input", async () => {
      const olds = await previous();
      for (const [before, after] of [
        [{}, webhookArgs()],
        [olds, webhookArgs()],
        [olds, webhookArgs({ connection: { token: HOOKS_TOKEN } })],
      ] as const) {
        const result = await check(before, { ...after, [QUOTA_INPUT]: { holds: 10 } });
        expect(result.failures).toEqual([]);
        expect(result.inputs).not.toHaveProperty(QUOTA_INPUT);
      }
    });

    it("counts a value not known yet as a change, as diff does", async () => {
      const olds = await previous();
      const result = await check(olds, {
        ...webhookArgs({ endpoint: UNKNOWN }),
        [QUOTA_INPUT]: { holds: 10 },
      });
      expect(result.failures[0]?.reason).toContain("(`endpoint` changed)");
    });

    it("fails with the program's refusal when the organization is over the quota, whatever changes", async () => {
      const refusal = "This program declares 11 Webhooks ...";
      for (const [before, after] of [
        [{}, webhookArgs()],
        [await previous(), webhookArgs({ channel: "moved" })],
      ] as const) {
        const result = await check(before, { ...after, [QUOTA_INPUT]: { holds: 11, refusal } });
        expect(result.failures).toEqual([{ property: "", reason: refusal }]);
        expect(result.inputs).not.toHaveProperty(QUOTA_INPUT);
      }
    });

    it("fails nothing without the input: the program holds a free slot, or the Webhook deletes first", async () => {
      const olds = await previous();
      expect((await check(olds, webhookArgs({ channel: "moved" }))).failures).toEqual([]);
    });
  });

  describe("a Webhook's check in the provider plugin, which passes the URN", () => {
    it("fails the check that takes the organization beyond 10, naming all eleven; no call", async () => {
      const calls = worldRef.current.calls();
      for (let i = 0; i < 10; i++) {
        const result = await check({}, webhookArgs({ channel: `c${i}` }), { urn: urn(`hook-${i}`) });
        expect(result.failures).toEqual([]);
      }
      const eleventh = await check({}, webhookArgs({ channel: "c10" }), { urn: urn("hook-10") });
      expect(eleventh.failures).toHaveLength(1);
      expect(eleventh.failures[0]!.property).toBe("");
      expect(eleventh.failures[0]!.reason).toContain("declares 11 Webhooks");
      expect(eleventh.failures[0]!.reason).toContain('"hook-0", "hook-1"');
      expect(eleventh.failures[0]!.reason).toContain('and "hook-10"');
      expect(eleventh.failures[0]!.reason).toContain("Remove 1 of them");
      expect(eleventh.failures[0]!.reason).not.toContain(HOOKS_TOKEN);
      expect(worldRef.current.calls()).toBe(calls);
    });

    it("counts a URN once however often it is checked, and organizations apart", async () => {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 10; i++) {
          const result = await check({}, webhookArgs({ channel: `c${i}` }), { urn: urn(`hook-${i}`) });
          expect(result.failures).toEqual([]);
        }
      }
      // Ten more, with another organization's token, and ten whose credentials are not known yet.
      for (let i = 0; i < 10; i++) {
        const other = webhookArgs({ channel: `g${i}`, connection: { token: OTHER_TOKEN } });
        expect((await check({}, other, { urn: urn(`globex-${i}`) })).failures).toEqual([]);
        const later = webhookArgs({ channel: `u${i}`, connection: UNKNOWN });
        expect((await check({}, later, { urn: urn(`later-${i}`) })).failures).toEqual([]);
      }
      // The same token under `connection` is the stack's organization.
      const same = webhookArgs({ channel: "same", connection: { token: HOOKS_TOKEN } });
      expect((await check({}, same, { urn: urn("same") })).failures).toHaveLength(1);
    });

    it("warns once of a replacement in an organization at the quota, whenever the tenth Webhook comes", async () => {
      const olds = await previous({ channel: "orders" });
      const replaced = await check(olds, webhookArgs({ channel: "orders-v2" }), { urn: urn("orders") });
      expect(replaced).toMatchObject({ failures: [], warnings: [] });
      const warnings = [];
      for (let i = 0; i < 9; i++) {
        const result = await check({}, webhookArgs({ channel: `c${i}` }), { urn: urn(`hook-${i}`) });
        expect(result.failures).toEqual([]);
        warnings.push(...result.warnings);
      }
      expect(warnings).toEqual([
        {
          urn: urn("orders"),
          message: expect.stringMatching(/^Webhook "orders" would be replaced \(`channel`/),
        },
      ]);
      expect(warnings[0]!.message).toContain("needs an 11th slot");
      expect(warnings[0]!.message).toMatch(/deleteBeforeReplace/);
      expect(
        (await check(olds, webhookArgs({ channel: "orders-v2" }), { urn: urn("orders") })).warnings,
      ).toEqual([]);
    });

    it("refuses the create of an organization over the quota before any call (`pulumi up --skip-preview`)", async () => {
      for (let i = 0; i <= 10; i++)
        await check({}, webhookArgs({ channel: `c${i}` }), { urn: urn(`hook-${i}`) });
      const calls = worldRef.current.calls();
      const refused = await webhook.create((await previous({ channel: "c0" })) as never).then(
        () => undefined,
        (e: ServiceError) => e,
      );
      expect(refused?.code).toBe("quota_reached");
      expect(refused?.message).toMatch(/^Not created: this program declares 11 Webhooks/);
      expect(worldRef.current.calls()).toBe(calls);
      // Other credentials are not held back (a second token of acme here: counted apart, as tokens are).
      const created = await webhook.create(
        (await previous({ channel: "r0", connection: { token: ROTATED_TOKEN } })) as never,
      );
      expect(created.id).toBeTruthy();
      await webhook.remove(created.id, created.outs as never);
    });
  });
});
