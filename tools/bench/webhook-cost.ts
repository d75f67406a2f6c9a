/**
 * The Cost goal of issue 9: 10 concurrent creates in an empty rate window make at most 11 API calls and
 * finish within twice the time of a bare burst of 10 POSTs, with 0 errors. Each round starts a fresh
 * sandbox limited to 10 requests per second (nothing has been sent to it, so its rate window is empty)
 * and a fresh provider process (no limiter history, no cached listing, no open connection). Ours and the
 * bare burst alternate round by round, so that drift on the machine affects both alike.
 */
import { performance } from "node:perf_hooks";
import { Agent } from "undici";
import { ProcessContext, setProcessContext } from "../../provider/context/process";
import { configure } from "../../provider/runtime-contract";
import { webhookLifecycle as webhook } from "../../provider/webhook/declaration";
import { startSandbox } from "../../sandbox/index";
import { median } from "./stats";

const TOKEN = "bench-token";
const HOST = "hooks.bench.test";
const SECRET = "bench-secret-0123456789";
const CREATES = 10;
const ROUNDS = 7;

interface Round {
  readonly calls: number;
  readonly ms: number;
  /** Creates that failed (ours) or answers other than 200 (bare). */
  readonly errors: number;
  /** 429s the sandbox sent. */
  readonly tooMany: number;
}

async function limitedSandbox() {
  const sandbox = await startSandbox({
    seed: {
      organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN, webhooks: true }] }],
      settings: { rateLimitPerSecond: 10 },
    },
  });
  // Registered through the store, not over HTTP, so that the rate window stays empty.
  const token = sandbox.store.tokens.get(TOKEN)!;
  sandbox.store.completeRegistration(token, sandbox.store.startRegistration(token, HOST));
  return sandbox;
}

const args = (channel: string) => ({
  endpoint: `https://${HOST}/events`,
  secretKey: SECRET,
  channel,
  filters: [{ key: "activity.name", value: "authentication" }],
});

/** 10 Webhook creates through the runtime the dynamic-provider host calls, client limiter on (default). */
async function ours(): Promise<Round> {
  const sandbox = await limitedSandbox();
  setProcessContext(new ProcessContext());
  const config: Record<string, string> = { "service:token": TOKEN, "service:baseUrl": sandbox.url };
  const settings = configure({ get: (k: string) => config[k] });
  const checked = await Promise.all(
    Array.from({ length: CREATES }, (_, i) => webhook.check(settings, {}, args(`c${i}`))),
  );
  const started = performance.now();
  const results = await Promise.allSettled(checked.map(({ inputs }) => webhook.create(settings, inputs)));
  const ms = performance.now() - started;
  const served = sandbox.requests();
  await sandbox.close();
  return {
    calls: served.length,
    ms,
    errors: results.filter((r) => r.status === "rejected").length,
    tooMany: served.filter((r) => r.status === 429).length,
  };
}

/** The same 10 creates as 10 bare concurrent POST /v2/webhooks: no limiter, no validation, no state. */
async function bare(): Promise<Round> {
  const sandbox = await limitedSandbox();
  const agent = new Agent();
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: CREATES }, async (_, i) => {
      const res = await agent.request({
        origin: sandbox.url,
        path: "/v2/webhooks",
        method: "POST",
        headers: {
          authorization: `Token ${TOKEN}`,
          "api-version": "2.0",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          endpoint: { type: "url", value: `https://${HOST}/events` },
          secret_key: SECRET,
          channel: `c${i}`,
          filters: [{ key: "activity.name", value: "authentication" }],
        }),
      });
      JSON.parse(await res.body.text());
      return res.statusCode;
    }),
  );
  const ms = performance.now() - started;
  const served = sandbox.requests();
  await agent.close();
  await sandbox.close();
  return {
    calls: served.length,
    ms,
    errors: statuses.filter((s) => s !== 200).length,
    tooMany: served.filter((r) => r.status === 429).length,
  };
}

export async function costRun(): Promise<void> {
  // One round of each first, unmeasured: it loads the lifecycle modules and warms the JIT.
  await ours();
  await bare();
  const mine: Round[] = [];
  const theirs: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      mine.push(await ours());
      theirs.push(await bare());
    } else {
      theirs.push(await bare());
      mine.push(await ours());
    }
  }
  const ratios = mine.map((m, i) => m.ms / theirs[i]!.ms);
  const worst = (rounds: Round[], key: "calls" | "errors" | "tooMany") =>
    Math.max(...rounds.map((r) => r[key]));
  console.log(
    `${CREATES} concurrent creates in an empty rate window, sandbox limited to 10 req/s, ${ROUNDS} rounds side by side`,
  );
  console.log(
    `  ours (runtime, client limiter on): calls ${worst(mine, "calls")} at most (goal <= 11), wall time median ${median(mine.map((r) => r.ms)).toFixed(1)} ms, errors ${worst(mine, "errors")} at most (goal 0), 429s ${worst(mine, "tooMany")}`,
  );
  console.log(
    `  bare burst of ${CREATES} POSTs (undici):  calls ${worst(theirs, "calls")}, wall time median ${median(theirs.map((r) => r.ms)).toFixed(1)} ms, errors ${worst(theirs, "errors")}, 429s ${worst(theirs, "tooMany")}`,
  );
  console.log(
    `  ours / bare, median of per-round ratios: ${median(ratios).toFixed(2)} (goal <= 2); range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
  );
}
