/**
 * The quota counted in a TypeScript program, under setMocks: each Webhook's registration waits on its
 * quota input, which settles once the program's turn is over, with what its check is to be told: every Webhook of an
 * organization with more than 10 gets one refusal naming them all, and at 10 each Webhook without
 * deleteBeforeReplace is told so.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeEach, describe, expect, it } from "vitest";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import { QUOTA_INPUT, type QuotaInput, quotaInput } from "../../../provider/webhook/quota";
import { HOOKS_TOKEN, OTHER_TOKEN, webhookArgs } from "../../helpers/fixtures";
import { mockedPulumi, settled } from "../../helpers/mocks";

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
    const inputs = names(10).map((name, i) => quotaInput(name, undefined, { deleteBeforeReplace: i === 0 }));
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
