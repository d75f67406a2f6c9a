/**
 * A step inside a Python program's Domain, or a Webhook beside it, fails, under the real engine, with the
 * provider plugin from a packed install: the user reads the step's cause once, with its next step, and
 * nothing scary beside it, neither the engine's "grpc: the client connection is closing" on the Domain nor
 * a Python traceback of a shut-down resource monitor. The plugin answers each failure when it happens, and
 * the engine ends the update as it decides: it starts no further step.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PYTHON_PULUMI_VERSION } from "../../tools/engine/pulumi-engine.mts";
import { type Consumer, createConsumer } from "../helpers/consumer";
import { describeUnderEngine, diagnosticsOf, type PulumiProject } from "../helpers/engine";
import { HOST } from "../helpers/fixtures";
import { DOMAIN_HOST, domainStack, useStage } from "../helpers/stage";

const root = join(__dirname, "../..");
/**
 * What Python prints when the engine answered its registration of a Domain whose Construct failed: status
 * UNKNOWN, "resource monitor shut down", as an unhandled exception with its traceback.
 */
const DOMAIN_FAILED_IN_PYTHON =
  /StatusCode\.UNKNOWN|Exception: resource monitor shut down|Program failed with an unhandled exception/;

/** The causes this file's scenarios make the package report: each belongs on the failing step, once. */
const OUR_CAUSES = /No API token|verification file|Stopped waiting|service:hostOverrides/;

/** The engine's parallelism (`pulumi up --parallel`) in the scenario of a Webhook refused beside a Domain. */
const PARALLEL = 2;
/** Webhooks queued behind the refused one in that scenario. */
const QUEUED = ["queued-1", "queued-2", "queued-3", "queued-4", "queued-5"];
/** The refused Webhook's host: no domain of the organization. */
const UNREGISTERED_HOST = "stray.acme.test";
/** Where the Domain looks for its verification file in that scenario: the folder it reaches late. */
const LATE_FOLDER = "cdn";
/** How soon the refusal must be reported: well within the Python program's Domain timeout (30 s). */
const REPORTED_WITHIN_MS = 20_000;
/** Runs of that scenario, each on a stack of its own: enough for CI; raise it to repeat it by hand. */
const REFUSED_BESIDE_RUNS = 1;

/** Nothing in `output` says that the Domain's Construct failed, whether by its own answer or a closed connection. */
function expectNoConstructFailure(output: string) {
  expect(output).not.toMatch(/client connection is closing/);
  expect(output).not.toMatch(/Domain resource 'hooks' has a problem/);
  expect(output).not.toMatch(DOMAIN_FAILED_IN_PYTHON);
}

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

  /**
   * Runs `up` on the stack and checks what every scenario must: it fails, with neither of the errors a
   * Domain's Construct answered with a failure brings (the engine's "client connection is closing" on the
   * Domain, or the Python SDK's traceback of the program's registration of the Domain, answered "resource
   * monitor shut down"). The engine v3.274.1 may stop a failed program's resource monitor before the
   * program has exited: Python then prints the KeyboardInterrupt of its own exit, or the traceback of a
   * registration still in flight, refused by the stopped monitor (each seen in some runs, whatever the
   * plugin answers; the second once in CI, before the engine's own line). Those are the engine's and the
   * SDK's, and carry none of this package's messages: the stack's diagnostics must hold the engine's
   * "update failed" and repeat no cause of ours.
   */
  async function failingUp(project: PulumiProject, stack: string) {
    return expectFailedUpdate(await project.run(["up", "--yes"], { allowFailure: true }), stack);
  }

  /** The checks of failingUp, on a command's exit status and output. */
  function expectFailedUpdate(failed: { status: number | null; output: string }, stack: string) {
    expect(failed.status).not.toBe(0);
    expectNoConstructFailure(failed.output);
    const diagnostics = diagnosticsOf(failed.output);
    const onStack = diagnostics.get(`pulumi:pulumi:Stack (service-python-${stack})`) ?? [];
    expect(onStack).toContain("error: update failed");
    expect(onStack.filter((message) => OUR_CAUSES.test(message))).toEqual([]);
    expect(diagnostics.has("service:index:Domain (hooks)")).toBe(false);
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
    const { diagnostics, output } = await failingUp(project, "beside");
    // Failing without a call, the Webhook is answered at once, though the Domain beside it is in flight.
    const webhookFailed = /Webhook orders creating \((\d+)s\) error/.exec(output);
    expect(Number(webhookFailed?.[1])).toBeLessThan(5);
    const noToken = expect.stringMatching(/^error: No API token was given: set one with/);
    expect(diagnostics.get("service:index:Webhook (orders)")).toEqual([noToken]);
    // The engine ends the update on that failure: a step of the Domain it had started by then fails the
    // same way, once, and one it had not is never run.
    diagnostics.delete("pulumi:pulumi:Stack (service-python-beside)");
    for (const messages of diagnostics.values()) expect(messages).toEqual([noToken]);
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

  it("cancelled by Ctrl-C while verifying, says so once, on the Domain's step, long before its timeout (regression)", async () => {
    const stage = stages.current;
    // The origin serves nothing for this host: the verification waits until the update is cancelled.
    const project = await domainStack(
      stage,
      { "service:hostOverrides": { [DOMAIN_HOST]: `${stage.originUrl}/nothing-here` } },
      { at: dir, stack: "cancelled" },
    );
    const up = watched(project.start(["up", "--yes", "--skip-preview"]));
    await up.printed(/DomainVerification hooks-verification creating/);
    const started = Date.now();
    up.child.kill("SIGINT");
    expect(await up.exited).not.toBe(0);
    // The program's Domain waits up to 30 s (its timeout): the cancel ends it at once.
    expect(Date.now() - started).toBeLessThan(20_000);
    expectNoConstructFailure(up.output());
    const diagnostics = diagnosticsOf(up.output());
    expect(diagnostics.has("service:index:Domain (hooks)")).toBe(false);
    expect(diagnostics.get("service:index:DomainVerification (hooks-verification)")).toEqual([
      expect.stringMatching(/^error: Stopped waiting for .* the update was cancelled/),
    ]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });

  for (const run of Array.from({ length: REFUSED_BESIDE_RUNS }, (_, index) => index + 1)) {
    it(`with a Webhook refused beside a Domain in verification, starts no create after the refusal, and the Domain finishes with nothing to report (run ${run} of ${REFUSED_BESIDE_RUNS})`, async () => {
      const stage = stages.current;
      const gate = await gatedCreates(stage.sandbox.url);
      try {
        const stack = `refused-beside-${run}`;
        // "gate" is held at the sandbox's door until the Domain's verification has started: the Webhooks
        // that wait for it are then registered while that verification holds one of the parallel slots.
        const webhooks = [
          { name: "gate", host: HOST, afterDomain: false },
          { name: "stray", host: UNREGISTERED_HOST, afterDomain: false, after: "gate" },
          ...QUEUED.map((name) => ({ name, host: HOST, afterDomain: false, after: "gate" })),
        ];
        // The Domain polls a folder the origin serves nothing from until the file is copied there.
        const project = await domainStack(
          stage,
          {
            webhooks,
            "service:baseUrl": gate.url,
            "service:hostOverrides": { [DOMAIN_HOST]: `${stage.originUrl}/${LATE_FOLDER}` },
          },
          { at: dir, stack },
        );
        const mark = stage.mark();
        const up = watched(project.start(["up", "--yes", "--skip-preview", "--parallel", String(PARALLEL)]));
        await up.printed(/DomainVerification hooks-verification creating/);
        gate.open();
        // Reported at once: a plugin that held the failure until the Domain's Construct is answered would
        // wait here for the Domain's 30 s timeout, since the file appears only once the failure is shown.
        await up.printed(/Webhook stray \*\*creating failed\*\*/, REPORTED_WITHIN_MS);
        // The file reaches the folder the Domain polls only now, as from a slow CDN.
        cpSync(
          join(stage.filesDir, "service_url_registration"),
          join(stage.filesDir, LATE_FOLDER, "service_url_registration"),
          { recursive: true },
        );
        const { diagnostics, output } = expectFailedUpdate(
          { status: await up.exited, output: up.output() },
          stack,
        );

        // Of the PARALLEL slots, the refused create held one and the Domain's verification the other, so no
        // other create was in flight when the refusal was answered; and the engine, told of it at once,
        // started no more, with Webhooks still queued.
        const creates = stage.sandbox
          .requests()
          .slice(mark)
          .filter((r) => r.method === "POST" && r.route === "/v2/webhooks");
        const refused = creates.findIndex((r) => r.status === 400);
        expect(refused).toBeGreaterThan(-1);
        expect(creates.slice(refused + 1)).toEqual([]);
        expect(creates.length).toBeLessThan(2 + QUEUED.length);

        // The failure is the stray Webhook's alone; the Domain, verifying when it was reported, finished.
        expect([...diagnostics.keys()].sort()).toEqual([
          `pulumi:pulumi:Stack (service-python-${stack})`,
          "service:index:Webhook (stray)",
        ]);
        expect(diagnostics.get("service:index:Webhook (stray)")).toEqual([
          expect.stringMatching(/^error: Cannot create the webhook .* is not a registered domain/),
        ]);
        const reported = output.indexOf("Webhook stray **creating failed**");
        expect(output.indexOf("DomainVerification hooks-verification created")).toBeGreaterThan(reported);

        await project.run(["destroy", "--yes"]);
        expect(await stage.active()).toEqual([]);
      } finally {
        await gate.close();
      }
    });
  }
});

/** A command started in the background: what it printed so far, and waits on it, each bounded. */
function watched(child: ChildProcess) {
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  return {
    child,
    output: () => output,
    exited,
    /** Resolves once the output matches `pattern`; rejects after `withinMs`, or if the command ends first. */
    printed(pattern: RegExp, withinMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(look);
          if (error) reject(error);
          else resolve();
        };
        const look = () => {
          if (pattern.test(output)) done();
        };
        const timer = setTimeout(
          () => done(new Error(`${pattern} not printed within ${withinMs / 1000} s:\n${output}`)),
          withinMs,
        );
        listeners.add(look);
        look();
        void exited.then(() => {
          if (listeners.has(look))
            done(new Error(`the command ended before printing ${pattern}:\n${output}`));
        });
      });
    },
  };
}

/**
 * A front for the sandbox that holds every webhook create (POST /v2/webhooks) until `open` is called,
 * and passes everything else straight on.
 */
async function gatedCreates(target: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === "POST" && req.url === "/v2/webhooks") await opened;
    const headers = Object.entries(req.headers).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === "string" && !["host", "connection", "content-length"].includes(entry[0]),
    );
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const kept = [...answer.headers].filter(
      ([name]) => !["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name),
    );
    res.writeHead(answer.status, Object.fromEntries(kept)).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
