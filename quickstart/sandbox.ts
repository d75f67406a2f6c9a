/**
 * `npm run sandbox`: the sandbox on port 8787, seeded for the quickstart, serving quickstart/.well-known-files
 * as the stand-in for https://hooks.quickstart.test/ and accepting its deliveries.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { startSandbox } from "@service/pulumi/sandbox";
import { findPulumiCli } from "./pulumi-cli";

const root = resolve(__dirname, "../..");
const filesDir = join(root, "quickstart/.well-known-files");

async function main(): Promise<void> {
  mkdirSync(filesDir, { recursive: true });
  const sandbox = await startSandbox({
    port: 8787,
    seed: join(root, "quickstart/sandbox-seed.json"),
    serveDir: filesDir,
  });
  process.stdout.write(`service-sandbox listening on ${sandbox.url}\n`);
  const steps = findPulumiCli()
    ? [
        "In another terminal:",
        "  export PULUMI_CONFIG_PASSPHRASE=quickstart   # the local backend encrypts secrets with it",
        "  pulumi login --local",
        "  pulumi stack init dev                       # once",
        "  pulumi up --stack dev",
      ]
    : [
        "The Pulumi CLI is not on PATH. Install it (https://www.pulumi.com/docs/install/), then in another terminal:",
        "  export PULUMI_CONFIG_PASSPHRASE=quickstart && pulumi login --local && pulumi stack init dev && pulumi up --stack dev",
        "Meanwhile the sandbox answers the API directly, for example:",
        `  curl -s -H 'Authorization: Token quickstart-token' -H 'Api-Version: 1.4' ${sandbox.url}/v1/health`,
      ];
  process.stdout.write(
    [
      "organization: quickstart   API token: quickstart-token",
      `admin routes: ${sandbox.url}/_sandbox   deliveries: ${sandbox.url}/_sandbox/deliveries`,
      ...steps,
      "Ctrl-C stops the sandbox.",
      "",
    ].join("\n"),
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
