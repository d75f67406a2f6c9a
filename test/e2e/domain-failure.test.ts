/**
 * A step inside a Python program's Domain fails, under the real engine, with the provider plugin from a
 * packed install: the user reads the step's cause once, with its next step, and nothing scary beside it,
 * neither the engine's "grpc: the client connection is closing" on the Domain nor a Python traceback of
 * a shut-down resource monitor (construct-guard.ts).
 */
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PYTHON_PULUMI_VERSION } from "../../tools/engine/pulumi-engine.mts";
import { type Consumer, createConsumer } from "../helpers/consumer";
import {
  describeUnderEngine,
  diagnosticsOf,
  type PulumiProject,
  PYTHON_MONITOR_STOPPED,
} from "../helpers/engine";
import { DOMAIN_HOST, domainStack, useStage } from "../helpers/stage";

const root = join(__dirname, "../..");

describeUnderEngine("a failure inside a Python program's Domain", { tools: ["python3"] }, () => {
  let consumer: Consumer;
  let dir: string;
  // Installed before the sandbox starts (useStage): npm and pip run synchronously here.
  beforeAll(() => {
    consumer = createConsumer(root);
    dir = join(consumer.dir, "python");
    cpSync(join(__dirname, "python-program"), dir, { recursive: true });
    const run = (command: string, args: string[]) =>
      execFileSync(command, args, { cwd: dir, stdio: "pipe", encoding: "utf8" });
    run("python3", ["-m", "venv", "venv"]);
    const sdk = join(consumer.dir, "node_modules/@service/pulumi/sdk/python");
    run("venv/bin/pip", ["install", "--quiet", `pulumi==${PYTHON_PULUMI_VERSION}`, sdk]);
  }, 600_000);
  afterAll(() => {
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });
  const stages = useStage();

  /** Runs `up` on the stack and checks what every scenario must: a failure, and nothing scary beside it. */
  async function failingUp(project: PulumiProject, stack: string, { pythonMayBeInterrupted = false } = {}) {
    const failed = await project.run(["up", "--yes"], { allowFailure: true });
    expect(failed.status).not.toBe(0);
    expect(failed.output).not.toMatch(/client connection is closing/);
    if (!pythonMayBeInterrupted) expect(failed.output).not.toMatch(/Traceback|KeyboardInterrupt/);
    const diagnostics = diagnosticsOf(failed.output);
    // Pulumi's Python SDK may say, in its own words, that the engine stopped the program's resource
    // monitor (whether it does is a race in the engine); nothing else is said on the stack.
    const stackLines = diagnostics.get(`pulumi:pulumi:Stack (service-python-${stack})`) ?? [];
    expect(stackLines.filter((line) => line !== PYTHON_MONITOR_STOPPED)).toEqual(["error: update failed"]);
    return { diagnostics, output: failed.output };
  }

  it("with no API token, names the missing token once, on the Domain's step, with its fix (regression)", async () => {
    const stage = stages.current;
    const project = await domainStack(stage, {}, { at: dir, stack: "no-token" });
    await project.run(["config", "rm", "service:token"]);
    const { diagnostics } = await failingUp(project, "no-token");
    expect(diagnostics.get("service:index:DomainRegistration (hooks-registration)")).toEqual([
      expect.stringMatching(
        /^error: No API token was given: set one with `pulumi config set --secret service:token/,
      ),
    ]);
    expect([...diagnostics.values()].flat().filter((m) => m.includes("No API token"))).toHaveLength(1);
    expect(await stage.active()).toEqual([]);
  });

  it("with no API token and Webhooks beside the Domain, names it once on each failing resource, at once (regression)", async () => {
    const stage = stages.current;
    const webhooks = [
      { name: "orders", afterDomain: false },
      { name: "fingerprints", kind: "fingerprint" },
    ];
    const project = await domainStack(stage, { webhooks }, { at: dir, stack: "beside" });
    await project.run(["config", "rm", "service:token"]);
    // Two resources fail at once here, and the engine v3.274.1 may then stop the Python program while it is
    // still shutting down: Python prints the KeyboardInterrupt of its own exit, with or without the plugin's
    // holds (seen in 2 of 4 runs either way). Nothing the plugin answers decides it.
    const { diagnostics, output } = await failingUp(project, "beside", { pythonMayBeInterrupted: true });
    // Failing without a call, the Webhook is answered at once, not after the plugin's 5 s stall.
    const webhookFailed = /Webhook orders creating \((\d+)s\) error/.exec(output);
    expect(Number(webhookFailed?.[1])).toBeLessThan(5);
    for (const resource of ["DomainRegistration (hooks-registration)", "Webhook (orders)"]) {
      expect(diagnostics.get(`service:index:${resource}`)).toEqual([
        expect.stringMatching(/^error: No API token was given: set one with/),
      ]);
    }
  });

  it("with its verification file unreachable, says why once, on the Domain's step (regression)", async () => {
    const stage = stages.current;
    const project = await domainStack(
      stage,
      { "service:hostOverrides": { [DOMAIN_HOST]: "http://127.0.0.1:1" } },
      { at: dir, stack: "unreachable" },
    );
    const { diagnostics } = await failingUp(project, "unreachable");
    const messages = [...diagnostics.values()].flat().filter((m) => m.includes("hostOverrides"));
    expect(messages).toHaveLength(1);
    expect(diagnostics.get("service:index:DomainVerification (hooks-verification)")).toEqual(messages);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
