/**
 * Scenarios 3, 9 and 10 under the real engine: a create whose answer is lost, credentials moved to
 * another organization, and a Ctrl-C in the middle of `pulumi up`. What the engine does with the
 * provider's answers (init errors kept in the checkpoint, pending operations, the next run's steps) is
 * what these prove; every scenario ends with one active webhook per resource and no planted secret.
 */
import { expect, it } from "vitest";
import { describeUnderEngine, diagnosticsOf, STACK_TRACE, webhooksIn } from "../helpers/engine";
import { HOOKS_TOKEN, OTHER_TOKEN } from "../helpers/fixtures";
import { devStack, expectLostCreateSettled, expectOneActivePerResource, useStage } from "../helpers/stage";

/** A token the service refuses (401): one revoked since, or mistyped. */
const REVOKED_TOKEN = "acme-revoked-token-0123456789";

/** A lost answer is re-listed for this long before the provider gives up and keeps the create pending. */
const RECONCILE = { SERVICE_RECONCILE_SECONDS: "1" };

describeUnderEngine("under the real engine, with faults", () => {
  const stages = useStage([HOOKS_TOKEN, OTHER_TOKEN, REVOKED_TOKEN]);

  it("keeps a create whose answer was lost before it applied, and the next up creates exactly one", async () => {
    const project = await devStack(stages.current, {}, { env: RECONCILE });
    await expectLostCreateSettled(stages.current, project);
    await expectOneActivePerResource(stages.current, [project]);
    await project.run(["destroy", "--yes"]);
  });

  it("finds a create that applied although its answer was lost, and creates nothing more", async () => {
    const project = await devStack(stages.current, {}, { env: RECONCILE });
    stages.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
    const first = await project.run(["up", "--yes"], { allowFailure: true });
    if (first.status !== 0) await project.run(["up", "--yes"]);
    expect(await stages.current.active()).toHaveLength(1);
    await project.run(["preview", "--expect-no-changes"]);
    await expectOneActivePerResource(stages.current, [project]);
    await project.run(["destroy", "--yes"]);
  });

  it("destroys a pending webhook, including one whose create applied late", async () => {
    const project = await devStack(
      stages.current,
      {},
      { env: { ...RECONCILE, SERVICE_TIMEOUT_SECONDS: "1" } },
    );
    // Applied after the client gave up waiting, and after the re-listing gave up looking.
    stages.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 3_000 });
    const failed = await project.run(["up", "--yes"], { allowFailure: true });
    expect(failed.status).not.toBe(0);
    expect(webhooksIn(await project.exported())[0]?.initErrors?.length).toBeGreaterThan(0);

    await project.run(["destroy", "--yes"]);
    expect(await stages.current.active()).toEqual([]);
    expect(webhooksIn(await project.exported())).toEqual([]);
  });

  it("refuses credentials of another organization with the explanation, and orphans nothing", async () => {
    const project = await devStack(stages.current);
    await project.run(["up", "--yes"]);
    const [uuid] = await stages.current.active();

    await project.config("service:token", OTHER_TOKEN, true);
    const moved = await project.run(["up", "--yes"], { allowFailure: true });
    expect(moved.status).not.toBe(0);
    expect(moved.output).toMatch(/orders/);
    expect(moved.output).toMatch(/organization/i);
    expect(await stages.current.active()).toEqual([uuid]);
    expect(await stages.current.active(OTHER_TOKEN)).toEqual([]);

    // The failed up saved the foreign token as the provider's configuration, and destroy reads that one:
    // the advice it prints (--run-program) is what makes it read the token fixed in config.
    await project.config("service:token", HOOKS_TOKEN, true);
    await project.run(["preview", "--expect-no-changes"]);
    await expectOneActivePerResource(stages.current, [project]);
    const stale = await project.run(["destroy", "--yes"], { allowFailure: true });
    expect(stale.status).not.toBe(0);
    expect(stale.output).toMatch(/run `pulumi destroy --run-program`/);
    expect(await stages.current.active()).toEqual([uuid]);
    await project.run(["destroy", "--yes", "--run-program"]);
    expect(await stages.current.active()).toEqual([]);
  });

  it("destroys and refreshes on a token saved in state by following the advice as printed, one line per resource and no stack trace", async () => {
    const project = await devStack(stages.current, { webhooks: [{ name: "orders" }, { name: "refunds" }] });
    await project.run(["up", "--yes"]);
    // An up with a wrong token fails, and saves that token as the provider's configuration all the same.
    await project.config("service:token", REVOKED_TOKEN, true);
    expect((await project.run(["up", "--yes"], { allowFailure: true })).status).not.toBe(0);
    await project.config("service:token", HOOKS_TOKEN, true);

    const refresh = await project.run(["refresh", "--yes"], { allowFailure: true });
    const destroy = await project.run(["destroy", "--yes"], { allowFailure: true });
    for (const [failed, command] of [
      [refresh, "pulumi refresh --run-program"],
      [destroy, "pulumi destroy --run-program"],
    ] as const) {
      expect(failed.status).not.toBe(0);
      expect(failed.output).not.toMatch(STACK_TRACE);
      // One message on each webhook. On the stack, before the engine's summary, the dynamic-provider host's
      // own printout of each failed Read or Delete, which the package cannot leave out without replacing the
      // host's console.error (errors/reported.ts): the failure once more, on one line, with no stack trace.
      const diagnostics = diagnosticsOf(failed.output);
      for (const name of ["orders", "refunds"]) {
        const [message, ...more] = diagnostics.get(`pulumi-nodejs:dynamic/service:Webhook (${name})`) ?? [];
        expect(message).toMatch(/answered 401/);
        expect(message).toContain(`then run \`${command}\``);
        expect(more).toEqual([]);
      }
      // The host's stderr and the engine's summary reach the stack in either order.
      const onStack = diagnostics.get("pulumi:pulumi:Stack (service-e2e-dev)") ?? [];
      const summary = onStack.filter((line) => /^error: (update|preview) failed$/.test(line));
      const echoed = onStack.filter((line) => !summary.includes(line));
      expect(summary).toHaveLength(1);
      expect(echoed).toEqual([
        expect.stringMatching(/^AuthenticationError: .*answered 401/),
        expect.stringMatching(/^AuthenticationError: .*answered 401/),
      ]);
      for (const printed of echoed) expect(printed).toContain(`then run \`${command}\``);
    }
    expect(await stages.current.active()).toHaveLength(2);

    // What a user does: the config is fixed already, so run the command the advice names.
    for (const failed of [refresh, destroy]) {
      const [, advised] = /then run `(pulumi [^`]+)`/.exec(failed.output)!;
      await project.run([...advised!.split(" ").slice(1), "--yes"]);
    }
    expect(await stages.current.active()).toEqual([]);
  });

  it.each([
    ["one Ctrl-C (the engine lets the held create finish)", 1],
    ["two Ctrl-Cs (the engine ends at once; regression: the next up made a second webhook)", 2],
  ])("converges after %s, with no duplicate", async (_what, interrupts) => {
    const project = await devStack(stages.current, { webhooks: [{ name: "orders" }, { name: "refunds" }] });
    stages.current.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 4_000, count: 2 });
    const up = project.start(["up", "--yes"]);
    let seen = "";
    const exited = new Promise<number | null>((resolve) => up.once("close", resolve));
    /** Resolves when the command has printed what `pattern` matches. */
    const printedSoFar = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${pattern} not printed within 60 s:\n${seen}`)),
          60_000,
        );
        const watch = (chunk: Buffer) => {
          seen += chunk.toString();
          if (pattern.test(seen)) {
            clearTimeout(timer);
            resolve();
          }
        };
        up.stdout!.on("data", watch);
        up.stderr!.on("data", watch);
      });
    await printedSoFar(/Webhook (orders|refunds) creating/);
    up.kill("SIGINT");
    if (interrupts === 2) {
      await printedSoFar(/press \^C again/);
      up.kill("SIGINT");
    }
    expect(await exited).not.toBe(0);

    // After an immediate stop the engine keeps a pending create and says so; the next up creates that
    // resource again, and the provider finds the webhook the interrupted create made instead.
    const next = await project.run(["up", "--yes"]);
    if (interrupts === 2) expect(next.output).toMatch(/(orders|refunds), interrupted while creating/);
    expect(await stages.current.active()).toHaveLength(2);
    await project.run(["preview", "--expect-no-changes"]);
    await expectOneActivePerResource(stages.current, [project]);
    await project.run(["destroy", "--yes"]);
  });
});
