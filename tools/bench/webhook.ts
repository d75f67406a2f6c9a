/**
 * npm run bench:webhook
 * - API calls made by check and diff for 10 unchanged webhooks (goal 0)
 * - API calls made by a refresh of 10 webhooks (goal 1)
 * - size of the provider text Pulumi stores for a Webhook
 * - 10 concurrent creates against a bare burst of 10 POSTs (issue 9's Cost goal; webhook-cost.ts)
 * - this package's share of the dynamic-provider host's cold start (goal <= 30 ms; cold-start.ts)
 */
import { ProcessContext, setProcessContext } from "../../provider/context/process";
import { configure } from "../../provider/runtime-contract";
import { webhookLifecycle as webhook } from "../../provider/webhook/declaration";
import { startSandbox } from "../../sandbox/index";
import { webhookProviderText } from "../../test/helpers/mocks";
import { coldStartRun } from "./cold-start";
import { costRun } from "./webhook-cost";

const TOKEN = "bench-token";
const HOST = "hooks.bench.test";
const SECRET = "bench-secret-0123456789";

async function callCounts(): Promise<void> {
  const sandbox = await startSandbox({
    seed: {
      organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN, webhooks: true }] }],
      settings: { rateLimitPerSecond: 0 },
    },
  });
  const token = sandbox.store.tokens.get(TOKEN)!;
  sandbox.store.completeRegistration(token, sandbox.store.startRegistration(token, HOST));
  const config: Record<string, string> = { "service:token": TOKEN, "service:baseUrl": sandbox.url };
  setProcessContext(new ProcessContext());
  const settings = configure({ get: (k: string) => config[k] });

  const made = [];
  for (let i = 0; i < 10; i++) {
    const { inputs } = await webhook.check(
      settings,
      {},
      {
        endpoint: `https://${HOST}/events`,
        secretKey: SECRET,
        channel: `c${i}`,
        filters: [{ key: "activity.name", value: "authentication" }],
      },
    );
    made.push({ inputs, ...(await webhook.create(settings, inputs)) });
  }

  let before = sandbox.requests().length;
  for (const m of made) {
    const { inputs } = await webhook.check(settings, m.inputs, { ...m.inputs });
    const result = await webhook.diff(settings, m.id, m.outs, inputs);
    if (result.changes) throw new Error("an unchanged webhook diffed as changed");
  }
  console.log(
    `API calls by check + diff of 10 unchanged webhooks: ${sandbox.requests().length - before} (goal 0)`,
  );

  // A refresh runs in a new provider process.
  setProcessContext(new ProcessContext());
  const refreshing = configure({ get: (k: string) => config[k] });
  before = sandbox.requests().length;
  await Promise.all(made.map((m) => webhook.read(refreshing, m.id, m.outs)));
  console.log(
    `API calls by a refresh of 10 webhooks:             ${sandbox.requests().length - before} (goal 1)`,
  );
  await sandbox.close();
}

async function main(): Promise<void> {
  await callCounts();
  // The text `pulumi up` stores in state: a Webhook registered under Pulumi's mocks, serialized by the
  // real closure serializer from the built package, as a user's program loads it.
  const providerText = await webhookProviderText();
  console.log(`serialized provider (a Webhook's __provider):      ${Buffer.byteLength(providerText)} bytes`);
  await costRun();
  await coldStartRun(providerText);
}

void main();
