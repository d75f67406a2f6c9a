import { describe, expect, it } from "vitest";
import { MAX_ACTIVE_WEBHOOKS } from "../../../contract/limits";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import {
  channelViolations,
  duplicateViolations,
  filterViolations,
  missingDependencyViolations,
  quotaViolations,
  replaceAtQuotaViolations,
  secretInPlainTextViolations,
  unregisteredHostViolations,
} from "../../../provider/policy/rules";
import { hooks, many, onHooks, stackOf, webhookOf } from "../../helpers/analyzed-stacks";
import { domain, probeStacks, secret, webhook } from "../../helpers/analyzer";
import { HOOKS_TOKEN, OTHER_HOST, OTHER_TOKEN, SECRET } from "../../helpers/fixtures";

describe("rules, as pure functions", () => {
  it("quota: Webhooks sharing credentials count together, each set of credentials on its own", () => {
    const eleven = stackOf(probeStacks.elevenWebhooks);
    const [over] = quotaViolations(eleven, MAX_ACTIVE_WEBHOOKS);
    expect(over!.urn).toBeUndefined();
    expect(over!.message.split("\n")[0]).toBe(
      `${MAX_ACTIVE_WEBHOOKS + 1} Webhooks use the same \`connection\` credentials, more than the quota of ${MAX_ACTIVE_WEBHOOKS} active webhooks per organization:`,
    );
    for (const w of eleven.webhooks) expect(over!.message).toContain(`  - ${w.name} (${w.urn})`);
    expect(over!.message).not.toContain(HOOKS_TOKEN);

    const split = stackOf([
      ...hooks.resources,
      ...many(6, {}, "default"),
      ...many(6, { connection: secret({ token: HOOKS_TOKEN }) }, "acme"),
      ...many(6, { connection: secret({ token: OTHER_TOKEN }) }, "globex"),
      ...many(6, { connection: UNKNOWN }, "later"),
    ]);
    expect(quotaViolations(split, MAX_ACTIVE_WEBHOOKS)).toEqual([]);
    expect(quotaViolations(split, 5).map((v) => v.message.split(" ").slice(0, 4).join(" "))).toEqual([
      "6 Webhooks use the",
      "6 Webhooks use the",
      "6 Webhooks use the",
    ]);
    expect(
      quotaViolations(stackOf([...hooks.resources, ...many(MAX_ACTIVE_WEBHOOKS)]), MAX_ACTIVE_WEBHOOKS),
    ).toEqual([]);
  });

  it("replace at quota: advises deleteBeforeReplace once the credentials have no free slot", () => {
    const full = [...many(MAX_ACTIVE_WEBHOOKS - 2), ...many(2, { deleteBeforeReplace: true }, "careful")];
    const [advice] = replaceAtQuotaViolations(stackOf(full), MAX_ACTIVE_WEBHOOKS);
    expect(advice!.message).toContain(`no free slot under the quota of ${MAX_ACTIVE_WEBHOOKS}`);
    expect(advice!.message).toContain(`"hook-1", "hook-2"`);
    expect(advice!.message).toContain(`"hook-${MAX_ACTIVE_WEBHOOKS - 2}" do not set \`deleteBeforeReplace\``);
    expect(advice!.message).not.toContain("careful-1");
    expect(advice!.message).not.toContain("\n");
    expect(replaceAtQuotaViolations(stackOf(full.slice(1)), MAX_ACTIVE_WEBHOOKS)).toEqual([]);
    expect(
      replaceAtQuotaViolations(
        stackOf(many(MAX_ACTIVE_WEBHOOKS, { deleteBeforeReplace: true })),
        MAX_ACTIVE_WEBHOOKS,
      ),
    ).toEqual([]);
  });

  it("replace at quota, over it: names no Webhook again, as the quota violation lists them all", () => {
    const eleven = many(MAX_ACTIVE_WEBHOOKS + 1);
    const [over] = quotaViolations(stackOf(eleven), MAX_ACTIVE_WEBHOOKS);
    const [advice] = replaceAtQuotaViolations(stackOf(eleven), MAX_ACTIVE_WEBHOOKS);
    expect(over!.message).toContain("hook-11 (");
    expect(advice!.message).toContain("11 of them (listed by service-webhook-quota) do not set");
    expect(advice!.message).not.toMatch(/hook-\d/);
    expect(advice!.message.length).toBeLessThan(over!.message.length / 2);
  });

  it("domain in stack: each host is a Domain of the stack or an external host", () => {
    const stray = webhook("stray", { endpoint: `https://${OTHER_HOST}/events` });
    const stack = stackOf([...hooks.resources, webhook("fine", onHooks), stray]);
    expect(unregisteredHostViolations(stack, [])).toEqual([
      {
        urn: stray.urn,
        message: expect.stringContaining(`Webhook "stray" sends to host ${OTHER_HOST}, but no Domain`),
      },
    ]);
    expect(unregisteredHostViolations(stack, [OTHER_HOST])).toEqual([]);
    // While a Domain's name is unknown, it may be the host in question.
    const later = domain("later", UNKNOWN);
    expect(unregisteredHostViolations(stackOf([...later.resources, stray]), [])).toEqual([]);
  });

  it("depends on domain: through dependsOn, through an input, or on the component itself", () => {
    const forms: [string, Parameters<typeof webhook>[1]][] = [
      ["children (Node SDK)", { dependencies: hooks.children }],
      ["component URN", { dependencies: [hooks.urn] }],
      ["one child", { dependencies: [hooks.children[1]!] }],
      ["endpoint input", { propertyDependencies: { endpoint: [hooks.children[1]!] } }],
    ];
    for (const [form, args] of forms) {
      expect(missingDependencyViolations(stackOf([...hooks.resources, webhook(form, args)])), form).toEqual(
        [],
      );
    }
    const other = domain("other", OTHER_HOST);
    const wrong = webhook("wrong", { dependencies: other.children });
    const loose = webhook("loose", { endpoint: `https://${OTHER_HOST}/x` });
    const external = webhook("external", { endpoint: "https://hooks.elsewhere.test/x" });
    expect(
      missingDependencyViolations(stackOf([...hooks.resources, ...other.resources, wrong, loose, external])),
    ).toEqual([
      {
        urn: wrong.urn,
        message: expect.stringContaining('Webhook "wrong" sends to hooks.acme.test, which Domain "hooks"'),
      },
      {
        urn: loose.urn,
        message: expect.stringContaining('Webhook "loose" sends to hooks.globex.test, which Domain "other"'),
      },
    ]);
  });

  it("unique: same credentials, endpoint, channel and canonical filters; nothing unknown", () => {
    const base = { ...onHooks, filters: [{ key: "activity.name", values: ["authentication"] }] };
    const [dup] = duplicateViolations(
      stackOf([webhook("a", base), webhook("b", onHooks), webhook("c", base)]),
    );
    expect(dup!.message).toMatch(
      /^3 Webhooks are the same webhook to the service: same credentials, endpoint https:\/\/hooks\.acme\.test\/service\/events, channel "default" and filters activity\.name=authentication:/,
    );
    const distinct = [
      webhook("a", base),
      webhook("channel", { ...base, channel: "other" }),
      webhook("org", { ...base, connection: secret({ token: OTHER_TOKEN }) }),
      webhook("path", { ...base, endpoint: "https://hooks.acme.test/other" }),
      webhook("unknown", { ...base, filters: UNKNOWN }),
    ];
    expect(duplicateViolations(stackOf(distinct))).toEqual([]);
  });

  it("secret in plain text: finds the key in endpoint, channel or filters, and never repeats it", () => {
    const SPACED = "whsec planted/secret 0123";
    const cases: [Parameters<typeof webhook>[1], string | undefined][] = [
      [{ endpoint: `https://hooks.acme.test/in/${SECRET}` }, "endpoint"],
      [
        { secretKey: secret(SPACED), endpoint: `https://hooks.acme.test/in/${encodeURIComponent(SPACED)}` },
        "endpoint",
      ],
      [{ channel: `ch-${SECRET}` }, "channel"],
      [
        {
          filters: [
            { key: "activity.name", value: "authentication" },
            { key: "owner.user.username", value: SECRET },
          ],
        },
        "filters",
      ],
      [{}, undefined],
      [{ channel: `ch-${SECRET}`, secretKey: secret(UNKNOWN) }, undefined],
      [{ channel: `ch-${SECRET}`, secretKey: "short" }, undefined],
    ];
    for (const [args, member] of cases) {
      const found = secretInPlainTextViolations(webhookOf(webhook("w", args)));
      expect(found.map((v) => v.message.match(/also appears in (\w+)/)?.[1])).toEqual(member ? [member] : []);
      expect(JSON.stringify(found)).not.toContain(SECRET);
      expect(JSON.stringify(found)).not.toContain(SPACED);
    }
  });

  it("channel: matches the configured pattern as a whole, the default channel included", () => {
    const [named, defaulted] = [
      webhookOf(webhook("named", { channel: "orders-prod" })),
      webhookOf(webhook("plain")),
    ];
    expect(channelViolations(named!, undefined)).toEqual([]);
    expect(channelViolations(named!, "orders-(prod|staging)")).toEqual([]);
    expect(channelViolations(named!, "orders")).toEqual([
      {
        urn: named!.urn,
        message: expect.stringContaining(
          'uses channel "orders-prod", which does not match the pattern orders',
        ),
      },
    ]);
    expect(channelViolations(defaulted!, "orders-.*")[0]!.message).toContain(
      'channel "default" (the default when `channel` is not set)',
    );
    expect(channelViolations(webhookOf(webhook("later", { channel: UNKNOWN })), "orders")).toEqual([]);
  });

  it("filters: optional keys and form factors outside the configured sets", () => {
    const w = webhookOf(
      webhook("w", {
        filters: [
          { key: "activity.name", value: "fingerprint" },
          { key: "activity.form_factor", values: ["free_camera", "lightbox", "microscopic"] },
          { key: "owner.user.username", value: "acme-alice" },
        ],
      }),
    );
    const all = ["activity.form_factor", "owner.user.username"];
    expect(filterViolations(w, all, ["lightbox", "microscopic", "free_camera"])).toEqual([]);
    expect(
      filterViolations(w, ["activity.form_factor"], ["lightbox", "microscopic"]).map((v) => v.message),
    ).toEqual([
      expect.stringContaining(
        "filters on activity.form_factor free_camera, which this policy's `allowedFormFactors` does not allow (allowed: lightbox, microscopic)",
      ),
      expect.stringContaining(
        "filters on owner.user.username, which this policy's `allowedFilterKeys` does not allow (allowed: activity.form_factor)",
      ),
    ]);
    expect(filterViolations(w, [], []).map((v) => v.message.match(/filters on ([\w.]+)/)?.[1])).toEqual([
      "activity.form_factor",
      "owner.user.username",
    ]);
  });
});
