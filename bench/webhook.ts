/**
 * npm run bench:webhook
 * - API calls made by check and diff for 10 unchanged webhooks (goal 0)
 * - API calls made by a refresh of 10 webhooks (goal 1)
 * - size of the serialized provider
 * - time from a cold start of the dynamic-provider host to the first Check over gRPC (goal < 500 ms)
 */
import * as pulumi from "@pulumi/pulumi";
import { ProcessContext, setProcessContext } from "../provider/context/process";
import { webhook } from "../provider/lifecycles";
import { configure } from "../provider/runtime-entry";
import { RuntimeProvider } from "../provider/runtime-provider";
import { startSandbox } from "../sandbox/index";
import { startDynamicHost } from "../test/helpers/dynamic-host";
import { percentile } from "./stats";

const TOKEN = "bench-token";
const HOST = "hooks.bench.test";
const SECRET = "bench-secret-0123456789";

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    seed: {
      organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN, webhooks: true }] }],
      settings: { rateLimitPerSecond: 0 },
    },
  });
  const token = sandbox.store.tokens.get(TOKEN)!;
  sandbox.store.completeRegistration(token, sandbox.store.startRegistration(token, HOST));
  const config: Record<string, string> = { "service:token": TOKEN, "service:baseUrl": sandbox.url };
  configure({ get: (k: string) => config[k] });

  const made = [];
  for (let i = 0; i < 10; i++) {
    const { inputs } = await webhook.check(
      {},
      {
        endpoint: `https://${HOST}/events`,
        secretKey: SECRET,
        channel: `c${i}`,
        filters: [{ key: "activity.name", value: "authentication" }],
      },
    );
    made.push({ inputs, ...(await webhook.create(inputs)) });
  }

  let before = sandbox.requests().length;
  for (const m of made) {
    const { inputs } = await webhook.check(m.inputs, { ...m.inputs });
    const result = await webhook.diff(m.id, m.outs, inputs);
    if (result.changes) throw new Error("an unchanged webhook diffed as changed");
  }
  console.log(
    `API calls by check + diff of 10 unchanged webhooks: ${sandbox.requests().length - before} (goal 0)`,
  );

  // A refresh runs in a new provider process.
  setProcessContext(new ProcessContext());
  configure({ get: (k: string) => config[k] });
  before = sandbox.requests().length;
  await Promise.all(made.map((m) => webhook.read(m.id, m.outs)));
  console.log(
    `API calls by a refresh of 10 webhooks:             ${sandbox.requests().length - before} (goal 1)`,
  );

  const serialized = await pulumi.runtime.serializeFunction(() => new RuntimeProvider("webhook"), {
    allowSecrets: true,
  });
  console.log(
    `serialized provider:                                ${Buffer.byteLength(serialized.text)} bytes`,
  );

  const total: number[] = [];
  const sdk: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < 5; i++) {
    const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
    await host.configure({ "service:token": TOKEN, "service:baseUrl": sandbox.url });
    await host.check(
      "urn:pulumi:dev::bench::pulumi-nodejs:dynamic/service:Webhook::w",
      {},
      {
        __provider: serialized.text,
        endpoint: `https://${HOST}/events`,
        secretKey: SECRET,
        filters: [{ key: "activity.name", value: "authentication" }],
      },
    );
    const now = performance.now();
    total.push(now - host.startedMs);
    sdk.push(host.readyMs - host.startedMs);
    ours.push(now - host.readyMs);
    await host.close();
  }
  const med = (xs: number[]) => `${percentile(xs, 50).toFixed(0)} ms`;
  console.log(`host cold start to first Check over gRPC, median of 5 starts: ${med(total)} (goal < 500 ms)`);
  console.log(`  of which Pulumi's host loading @pulumi/pulumi until it listens: ${med(sdk)}`);
  console.log(`  of which Configure + first Check (this package's runtime):       ${med(ours)}`);
  await sandbox.close();
}

void main();
