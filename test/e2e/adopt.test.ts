/**
 * Adopting an organization made by hand, in one command, under the real engine, from TypeScript and from
 * Python: webhooks and a domain made with the package's client alone; `service-pulumi audit
 * --import-file`; `pulumi import --file --out`, which writes the program in the project's language with
 * Pulumi's own generator (the Node.js host's through tools/engine's pulumi-language-nodejs-codegen); the
 * secret keys added as the audit says; then a preview with no change and a clean audit. It needs the
 * engine: the import, the code generation and the preview are the engine's and the language hosts'.
 *
 * One webhook's channel is hostile (quotes, a template, a command substitution): the generated programs
 * still compile and run, and nothing in them or in what the audit prints runs it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { ServiceClient } from "../../provider/client/index";
import { virtualenv } from "../../tools/bench/python-fleet.mts";
import { describeUnderEngine, type PulumiProject, pulumiProject, webhooksIn } from "../helpers/engine";
import { HOOKS_TOKEN, HOST, SECRET } from "../helpers/fixtures";
import { builtServicePulumi } from "../helpers/service-pulumi";
import { DOMAIN_HOST, type Stage, useStage } from "../helpers/stage";

const root = join(__dirname, "../..");
/** A channel that would run code, or a command, if any of it reached a program or a shell unquoted. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a template, in a channel, is the attack
const HOSTILE_CHANNEL = "evil\"'`${process.exit(7)}` $(touch pwned); #\\";
const CHANNELS = ["orders", "orders-eu", "default", "2024 refunds", HOSTILE_CHANNEL];

/** The project folders, under the repository (where node_modules resolves @pulumi/pulumi). */
const work = join(root, ".e2e-work");
mkdirSync(work, { recursive: true });
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A Pulumi project of `runtime` on this repository's provider plugin, with nothing in its program yet. */
function projectFolder(runtime: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(work, "adopt-"));
  folders.push(dir);
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    `name: service-adopt\n${runtime}plugins:\n  providers:\n    - name: service\n      path: ${join(root, "plugin")}\n`,
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * A stack `adopt` of the project in `dir`, its provider pointed at the stage: the one command that sets
 * the credentials, the sandbox and its origin.
 */
async function adoptStack(stage: Stage, dir: string): Promise<PulumiProject> {
  const project = pulumiProject({ at: dir });
  await project.run(["stack", "init", "adopt"]);
  await project.run([
    "config",
    "set-all",
    "--secret",
    `service:token=${HOOKS_TOKEN}`,
    "--plaintext",
    `service:baseUrl=${stage.sandbox.url}`,
    "--plaintext",
    `service:hostOverrides=${JSON.stringify({ [HOST]: stage.originUrl, [DOMAIN_HOST]: stage.originUrl })}`,
  ]);
  return project;
}

/** Five webhooks on DOMAIN_HOST, each with its own secret, and the domain, made with the client alone. */
async function madeByHand(stage: Stage): Promise<Map<string, string>> {
  const client = new ServiceClient({ token: HOOKS_TOKEN, baseUrl: stage.sandbox.url });
  if (!(await client.domains.list()).items.some((d) => d.domain_name === DOMAIN_HOST)) {
    const start = await client.domains.startRegistration({ domain_name: DOMAIN_HOST });
    const file = join(stage.filesDir, new URL(start.url).pathname);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, start.register_token);
    await client.domains.finishRegistration({ domain_name: DOMAIN_HOST, verifier: start.verifier });
  }
  const secrets = new Map<string, string>();
  for (const [i, channel] of CHANNELS.entries()) {
    const created = await client.webhooks.create({
      endpoint: { type: "url", value: `https://${DOMAIN_HOST}/service/events` },
      secret_key: `${SECRET}-${i}`,
      channel,
      filters: [{ key: "activity.name", value: i % 2 ? "fingerprint" : "authentication" }],
    });
    secrets.set(created.webhook_uuid, `${SECRET}-${i}`);
  }
  return secrets;
}

/** What the audit says each webhook needs: its config key, and the line the program adds. */
interface SecretLine {
  readonly name: string;
  readonly uuid: string;
  readonly configKey: string;
  readonly typescript: string;
  readonly python: string;
}

function secretLines(stderr: string): SecretLine[] {
  return [
    ...stderr.matchAll(
      /^- (\w+) \(webhook ([\w-]+)\): `pulumi config set --secret (\w+)` \(it asks for the key\), then in its arguments `(.+?)` for `secretKey: ""` in TypeScript, `(.+?)` for `secret_key=""` in Python\.$/gm,
    ),
  ].map(([, name, uuid, configKey, typescript, python]) => ({
    name: name!,
    uuid: uuid!,
    configKey: configKey!,
    typescript: typescript!,
    python: python!,
  }));
}

/**
 * Audits the stack `adopt` with --import-file, imports the file with --out, adds each secret as the
 * audit says (`addSecret` puts its line into the program), and checks the preview and the audit after.
 */
async function adopt(
  stage: Stage,
  project: PulumiProject,
  program: string,
  language: {
    declareConfig: (code: string) => string;
    addSecret: (code: string, line: SecretLine) => string;
  },
) {
  const secrets = await madeByHand(stage);
  const audit = (args: readonly string[]) =>
    builtServicePulumi(["audit", "--stacks", "adopt", ...args], { cwd: project.dir, env: project.env });
  const found = await audit(["--import-file", "adopt.json"]);
  expect(found.status, found.output).toBe(1);
  const file = JSON.parse(readFileSync(join(project.dir, "adopt.json"), "utf8"));
  expect(file.resources).toEqual([
    { type: "service:index:DomainVerification", name: "hooksAcmeTest", id: HOST },
    { type: "service:index:DomainVerification", name: "otherAcmeTest", id: DOMAIN_HOST },
    // In the report's order, by channel.
    ...["webhook2024Refunds", "defaultWebhook", "evilProcessExit7TouchPwned", "orders", "ordersEu"].map(
      (name) => ({ type: "service:index:Webhook", name, id: expect.any(String) }),
    ),
  ]);
  const lines = secretLines(found.stderr);
  expect(lines.map((l) => l.uuid).sort()).toEqual([...secrets.keys()].sort());

  await project.run(["import", "--file", "adopt.json", "--out", program, "--yes"]);
  let code = language.declareConfig(readFileSync(join(project.dir, program), "utf8"));
  for (const line of lines) code = language.addSecret(code, line);
  writeFileSync(join(project.dir, program), code);
  await project.run([
    "config",
    "set-all",
    ...lines.flatMap((line) => ["--secret", `${line.configKey}=${secrets.get(line.uuid)}`]),
  ]);

  const mark = stage.mark();
  await project.run(["preview", "--expect-no-changes"]);
  expect(stage.callsSince(mark, "/v2/webhooks")).toBe(0);
  expect(webhooksIn(await project.exported())).toHaveLength(CHANNELS.length);
  const clean = await audit([]);
  expect(clean.stdout).toContain("Clean: every active webhook and registered domain is in one stack's state");
  expect(clean.status).toBe(0);
  // Nothing ran the hostile channel's command.
  expect(existsSync(join(project.dir, "pwned"))).toBe(false);
  return code;
}

describeUnderEngine(
  "an organization made by hand, adopted with audit --import-file and pulumi import --file",
  { tools: ["python3"] },
  () => {
    const stages = useStage([HOOKS_TOKEN]);

    it("from TypeScript, through the plugin's types and its generated Node.js SDK", async () => {
      const stage = stages.current;
      const dir = projectFolder("runtime: nodejs\n", {
        // What TypeScript 6, the repository's, takes for a CommonJS program.
        "tsconfig.json": JSON.stringify({
          compilerOptions: { strict: true, target: "es2022", module: "nodenext", skipLibCheck: true },
          files: ["index.ts"],
        }),
        // The program's own package.json, which `pulumi` would otherwise look for up to the repository's.
        "package.json": JSON.stringify({ name: "adopt", private: true, main: "index.ts" }),
        "index.ts": "",
      });
      const project = await adoptStack(stage, dir);
      // The plugin's Node.js SDK, which the generated program imports (`@service/pulumi-sdk`), generated by
      // the engine and built as `pulumi package add` builds it.
      // Its sources beside the project: in it, they would be the program's to compile too.
      const sources = mkdtempSync(join(work, "adopt-sdk-"));
      folders.push(sources);
      await project.run([
        "package",
        "gen-sdk",
        join(root, "schema.json"),
        "--language",
        "nodejs",
        "--out",
        sources,
      ]);
      const sdk = join(dir, "node_modules/@service/pulumi-sdk");
      const tsc = join(root, "node_modules/typescript/bin/tsc");
      execFileSync(process.execPath, [tsc, "-p", join(sources, "nodejs"), "--outDir", sdk], {
        stdio: "pipe",
      });
      writeFileSync(join(sdk, "package.json"), readFileSync(join(sources, "nodejs/package.json")));

      const code = await adopt(stage, project, "index.ts", {
        declareConfig: (text) =>
          text.replace(/^(import .*\n)+/m, "$&\nconst config = new pulumi.Config();\n"),
        addSecret: (text, line) =>
          text.replace(
            new RegExp(`(new service\\.Webhook\\("${line.name}", \\{[\\s\\S]*?)secretKey: ""`),
            `$1${line.typescript}`,
          ),
      });
      expect(code).toContain('import * as service from "@service/pulumi-sdk";');
    });

    it("from Python, through the plugin's generated Python SDK", async () => {
      const stage = stages.current;
      const dir = projectFolder(
        `runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: ${virtualenv()}\n`,
        { "__main__.py": "" },
      );
      const project = await adoptStack(stage, dir);
      const code = await adopt(stage, project, "__main__.py", {
        declareConfig: (text) => text.replace(/^(import .*\n)+/m, "$&\nconfig = pulumi.Config()\n"),
        addSecret: (text, line) =>
          text.replace(
            new RegExp(
              `(${pythonName(line.name)} = service\\.Webhook\\("${line.name}",[\\s\\S]*?)secret_key=""`,
            ),
            `$1${line.python}`,
          ),
      });
      expect(code).toContain("import service_pulumi as service");
    });
  },
);

/** The variable Python's generator names a resource: its name in snake_case. */
const pythonName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
