/**
 * The quota in a Webhook's check, as the engine calls it: the at-quota input a TypeScript program sends
 * (a replacement then fails), and the count the provider plugin keeps from the URNs it checks (the check
 * that goes beyond the quota fails; a replacement at the quota is warned of; a create of an organization
 * over the quota is refused before any call).
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { ServiceError } from "../../../provider/errors/base";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { webhookLifecycle as webhook } from "../../../provider/webhook/declaration";
import { QUOTA_INPUT } from "../../../provider/webhook/quota";
import { check } from "../../../provider/webhook/resource";
import { HOOKS_TOKEN, OTHER_TOKEN, ROTATED_TOKEN, webhookArgs } from "../../helpers/fixtures";
import { configureStack } from "../../helpers/runtime";
import { useRegisteredWorld } from "../../helpers/world";

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
    const result = await check(olds, { ...webhookArgs({ endpoint: UNKNOWN }), [QUOTA_INPUT]: { holds: 10 } });
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
