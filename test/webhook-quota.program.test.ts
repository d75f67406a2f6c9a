/**
 * The quota counted in a TypeScript program, under setMocks: each Webhook's registration waits on a gate
 * that settles once the program's turn is over; the gates of an organization with more than 10 Webhooks
 * fail together, and those of an organization at 10 tell each Webhook without deleteBeforeReplace so.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeEach, describe, expect, it } from "vitest";
import { ProcessContext, setProcessContext } from "../provider/context/process";
import { quotaGate } from "../provider/webhook/program-quota";
import { HOOKS_TOKEN, OTHER_TOKEN, webhookArgs } from "./helpers/fixtures";
import { mockedPulumi, settled } from "./helpers/mocks";

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

/** What each gate settled to: the at-quota count, or the error's message. */
function outcomes(gates: ReturnType<typeof quotaGate>[]) {
  return Promise.all(
    gates.map((g) =>
      Promise.all([g.dependsOn, g.atQuota]).then(
        ([, atQuota]) => ({ atQuota }),
        (error: Error) => ({ error }),
      ),
    ),
  );
}

beforeEach(() => {
  setProcessContext(new ProcessContext());
  newRun();
});

describe("the quota gates of one run of a program", () => {
  it("fail every Webhook of an organization with eleven, with one error naming them all", async () => {
    const settledTo = await outcomes(names(11).map((name) => quotaGate(name, undefined, {})));
    const errors = new Set(settledTo.map((o) => ("error" in o ? o.error : undefined)));
    expect(errors.size).toBe(1);
    const [error] = errors;
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect(error!.message).toContain("This program declares 11 Webhooks");
    expect(error!.message).toContain('"hook-0", "hook-1"');
    expect(error!.message).toContain("None of them was created.");
    expect(error!.message).not.toContain(HOOKS_TOKEN);
  });

  it("let ten through, telling those without deleteBeforeReplace that the organization is at the quota", async () => {
    const gates = names(10).map((name, i) => quotaGate(name, undefined, { deleteBeforeReplace: i === 0 }));
    expect(await outcomes(gates)).toEqual([{ atQuota: undefined }, ...names(9).map(() => ({ atQuota: 10 }))]);
    newRun();
    expect(await outcomes(names(9).map((name) => quotaGate(name, undefined, {})))).toEqual(
      names(9).map(() => ({ atQuota: undefined })),
    );
  });

  it("count organizations apart, by the credentials a client would use, secret or plain", async () => {
    const gates = [
      ...names(7, "stack").map((name) => quotaGate(name, undefined, {})),
      ...names(3, "same").map((name) => quotaGate(name, pulumi.secret({ token: HOOKS_TOKEN }), {})),
      // An Output inside, as a JavaScript program may pass it.
      ...names(10, "globex").map((name) =>
        quotaGate(name, { token: pulumi.secret(OTHER_TOKEN) } as never, {}),
      ),
    ];
    const settledTo = await outcomes(gates);
    expect(settledTo.every((o) => "atQuota" in o && o.atQuota === 10)).toBe(true);
    const eleventh = await outcomes([quotaGate("one-more", { token: HOOKS_TOKEN }, {})]);
    expect("error" in eleventh[0]! && eleventh[0].error.message).toContain(
      '"one-more" was not created; the others were declared earlier and went ahead.',
    );
  });

  it("leave out a Webhook whose credentials are not known when the turn ends", async () => {
    let resolveLater: (token: string) => void = () => {};
    const later = pulumi.output(new Promise<string>((resolve) => (resolveLater = resolve)));
    const gates = [
      ...names(10).map((name) => quotaGate(name, undefined, {})),
      quotaGate(
        "later",
        later.apply((token) => ({ token })),
        {},
      ),
    ];
    const settledTo = await outcomes(gates);
    expect(settledTo.at(-1)).toEqual({ atQuota: undefined });
    expect(settledTo.every((o) => "atQuota" in o)).toBe(true);
    resolveLater(HOOKS_TOKEN);
  });

  it("start afresh in each run (the Automation API runs programs one after another in one process)", async () => {
    expect((await outcomes(names(10).map((name) => quotaGate(name, undefined, {})))).length).toBe(10);
    newRun();
    const again = await outcomes(names(10).map((name) => quotaGate(name, undefined, {})));
    expect(again.every((o) => "atQuota" in o)).toBe(true);
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
    expect(inputs[0]).not.toHaveProperty("__webhooksOfOrganization");
    for (const i of inputs.slice(1)) expect(i.__webhooksOfOrganization).toBe(10);
  });
});
