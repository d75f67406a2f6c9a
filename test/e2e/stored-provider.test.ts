/**
 * The stored provider's contract under the real engine, from a packed install (test/helpers/consumer.ts):
 * - a stack whose package was removed before its resources were deleted gets the one sentence the stored
 *   text carries, once per resource, never Node's "Cannot find module"; once the package is back, destroy
 *   works. Regression: every Delete failed with `Cannot find module '@service/pulumi/runtime'` and nothing
 *   said what to do.
 * - under pnpm, whose project node_modules holds only the project's direct dependencies, a direct
 *   dependency goes up, refreshes and is destroyed; a transitive one gets the sentence.
 * - after a downgrade to a runtime whose contract is older than the stack's, refresh and destroy get the
 *   sentence, not a TypeError.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONTRACT, contractNeededMessage } from "../../provider/resource-kit/contract";
import { type Consumer, type ConsumerOptions, createConsumer } from "../helpers/consumer";
import {
  type CommandResult,
  describeUnderEngine,
  diagnosticsOf,
  PROGRAM_DIR,
  type PulumiProject,
  STACK_TRACE,
} from "../helpers/engine";
import { devStack, domainStack, expectNoSecretIn, type Stage, useStage } from "../helpers/stage";

const root = join(__dirname, "../..");
const NEEDED = contractNeededMessage(CONTRACT)!;
const PROJECT = "service-e2e";

/**
 * The e2e program in a consumer project installed from the packed tarball, for the tests of one describe
 * block; `program` rewrites its index.js. Call it before useStage, so that it installs before the stage starts: the package manager runs
 * synchronously here.
 */
function useConsumer(
  options: ConsumerOptions = {},
  program: (text: string) => string = (text) => text,
): { readonly current: Consumer } {
  const holder = { current: undefined as unknown as Consumer };
  beforeAll(() => {
    holder.current = createConsumer(root, options);
    for (const [file, edit] of [
      ["Pulumi.yaml", (text: string) => text],
      ["index.js", program],
    ] as const) {
      writeFileSync(join(holder.current.dir, file), edit(readFileSync(join(PROGRAM_DIR, file), "utf8")));
    }
  }, 240_000);
  afterAll(() => {
    if (holder.current) rmSync(holder.current.dir, { recursive: true, force: true });
  });
  return holder;
}

/** The dynamic resources of a stack's state, as the engine names them in its diagnostics: `<type> (<name>)`. */
async function dynamicResourcesOf(project: PulumiProject): Promise<string[]> {
  const resources = (await project.exported()).deployment.resources ?? [];
  return resources
    .filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((resource) => `${resource.type} (${resource.urn.split("::").at(-1)})`);
}

/**
 * The command `failed` with the sentence once for each of `resources`, and echoed it once for each on the
 * stack (the dynamic-provider host prints each failure it answers on its stderr, which the engine shows
 * there), without Node's "Cannot find module", a TypeError or a stack trace.
 */
function expectSentenceOncePer(failed: CommandResult, resources: readonly string[], stack: string) {
  expect(failed.status).not.toBe(0);
  expect(failed.output).not.toContain("Cannot find module");
  expect(failed.output).not.toContain("TypeError");
  expect(failed.output).not.toMatch(STACK_TRACE);
  const diagnostics = diagnosticsOf(failed.output);
  for (const resource of resources) {
    const messages = diagnostics.get(resource) ?? [];
    expect(
      messages.filter((message) => message.includes(NEEDED)),
      `${resource}:\n${failed.output}`,
    ).toHaveLength(1);
  }
  const echoed = diagnostics.get(`pulumi:pulumi:Stack (${PROJECT}-${stack})`) ?? [];
  expect(echoed.filter((message) => message.includes(NEEDED))).toHaveLength(resources.length);
}

const webhook = (name: string) => `pulumi-nodejs:dynamic/service:Webhook (${name})`;

/**
 * A stack of the program in the consumer project `at`, with two Webhooks, "orders" and "refunds" (and a
 * Domain that verifies their host, with `domain`), gone up.
 */
async function upWithTwoWebhooks(stage: Stage, at: string, options: { readonly domain?: boolean } = {}) {
  const webhooks = [{ name: "orders" }, { name: "refunds" }];
  const project = options.domain
    ? await domainStack(stage, { domain: "true", webhooks }, { at })
    : await devStack(stage, { webhooks }, { at });
  await project.run(["up", "--yes"]);
  expect(await stage.active()).toHaveLength(2);
  return project;
}

describeUnderEngine("a stack whose package is uninstalled before its resources are deleted", () => {
  const consumer = useConsumer();
  const stages = useStage();

  it("fails each Delete with the sentence, once per resource, and destroys once the package is back", async () => {
    const stage = stages.current;
    const project = await upWithTwoWebhooks(stage, consumer.current.dir);

    consumer.current.packageManager(["uninstall", "@service/pulumi"]);
    const refused = await project.run(["destroy", "--yes"], { allowFailure: true });
    expectSentenceOncePer(refused, [webhook("orders"), webhook("refunds")], "dev");
    expect(await stage.active()).toHaveLength(2);
    // The token and the webhooks' secrets, given in the program's config, are in nothing printed or stored.
    expectNoSecretIn([JSON.stringify(await project.exported())], stage);

    consumer.current.packageManager(["install", consumer.current.tarball]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});

describeUnderEngine("under pnpm, the package as a direct dependency of the project", () => {
  const consumer = useConsumer({ packageManager: "pnpm" });
  const stages = useStage();

  it("goes up with a Domain and a Webhook, refreshes with no change, and is destroyed", async () => {
    const stage = stages.current;
    const project = await domainStack(
      stage,
      { domain: "true", webhooks: [{ name: "orders" }] },
      { at: consumer.current.dir },
    );
    await project.run(["up", "--yes"]);
    expect(await stage.active()).toHaveLength(1);
    await project.run(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
    expectNoSecretIn([project.checkpointFile(PROJECT, "dev")], stage);
  });
});

describeUnderEngine("under pnpm, the package only as a dependency of the project's own library", () => {
  // The program requires a library of the team's, "platform", which depends on @service/pulumi and
  // re-exports it: pnpm puts @service/pulumi in platform's node_modules, not in the project's, where the
  // stored text looks for it.
  const consumer = useConsumer({ packageManager: "pnpm", through: "platform" }, (text) => {
    const edited = text.replace('require("@service/pulumi")', 'require("platform")');
    expect(edited).not.toBe(text);
    return edited;
  });
  const stages = useStage();

  // The preview of `up` ends at the first resource's Check that fails, so one Webhook says it all.
  it("fails the first step with the sentence, once, and creates nothing", async () => {
    const stage = stages.current;
    const project = await devStack(stage, {}, { at: consumer.current.dir });
    const refused = await project.run(["up", "--yes"], { allowFailure: true });
    expectSentenceOncePer(refused, [webhook("orders")], "dev");
    expect(await stage.active()).toEqual([]);
  });
});

/**
 * What is modelled: a stack written by this version, then a downgrade to an earlier version whose runtime
 * serves only the contract before this one. Nothing was released before contract 1, so the earlier runtime
 * is this version's own runtime, as installed from the tarball, with three edits to its bundle: the
 * contract it serves lowered by one (the exported `CONTRACT`, and the check in `storedProvider`, where the
 * bundler writes the number itself), and its table of contracts (`CONTRACT_VERSIONS`) knowing only that
 * lower one, as an earlier release's would: it cannot know the range the stack's text needs, so it must
 * throw the sentence the text hands it. The program's side is left as it is (refresh and destroy run the
 * text in state, not the program). Putting the bundle back stands for the upgrade that follows. Each edit
 * must apply exactly once, so a change of the bundle's shape fails here rather than testing nothing.
 */
function downgradeRuntime(consumer: Consumer): () => void {
  // The bundle keeps a module that lazily loaded lifecycles share in a chunk of its own: each edit goes
  // to the one file of the runtime that holds its pattern.
  const dir = join(consumer.dir, "node_modules/@service/pulumi/dist/runtime");
  const files = readdirSync(dir).filter((name) => name.endsWith(".js"));
  const built = new Map(files.map((name) => [name, readFileSync(join(dir, name), "utf8")]));
  const older = CONTRACT - 1;
  const edits: [RegExp, string][] = [
    [new RegExp(`\\bconst CONTRACT = ${CONTRACT};`, "g"), `const CONTRACT = ${older};`],
    [new RegExp(`\\bcontract !== (?:CONTRACT|${CONTRACT})\\b`, "g"), `contract !== ${older}`],
    [
      /\bconst CONTRACT_VERSIONS = (.*)new Map\(\[.*\]\);/g,
      `const CONTRACT_VERSIONS = $1new Map([[${older}, "<0.1.0"]]);`,
    ],
  ];
  const downgraded = new Map(built);
  for (const [pattern, replacement] of edits) {
    const holders = [...built].filter(([, text]) => text.match(pattern) !== null);
    expect(
      holders.map(([name, text]) => [name, text.match(pattern)?.length]),
      `${pattern} in the built runtime`,
    ).toHaveLength(1);
    expect(holders[0]![1].match(pattern)).toHaveLength(1);
    const name = holders[0]![0];
    downgraded.set(name, downgraded.get(name)!.replace(pattern, replacement));
  }
  for (const [name, text] of downgraded) if (text !== built.get(name)) writeFileSync(join(dir, name), text);
  return () => {
    for (const [name, text] of built) writeFileSync(join(dir, name), text);
  };
}

describeUnderEngine("a stack downgraded to a runtime whose contract is older than its state's", () => {
  const consumer = useConsumer();
  const stages = useStage();

  it("fails each Read and each Delete with the sentence, once per resource, and destroys once upgraded", async () => {
    const stage = stages.current;
    const project = await upWithTwoWebhooks(stage, consumer.current.dir, { domain: true });
    const dynamic = await dynamicResourcesOf(project);
    expect(dynamic).toEqual(expect.arrayContaining([webhook("orders"), webhook("refunds")]));

    const upgrade = downgradeRuntime(consumer.current);
    const refreshed = await project.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
    expectSentenceOncePer(refreshed, dynamic, "dev");
    // Destroy deletes the Webhooks first; the Domain's steps, which they depend on, never start.
    const destroyed = await project.run(["destroy", "--yes"], { allowFailure: true });
    expectSentenceOncePer(destroyed, [webhook("orders"), webhook("refunds")], "dev");
    expect(await stage.active()).toHaveLength(2);

    upgrade();
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
