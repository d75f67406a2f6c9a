/**
 * npm run bench:client
 * 1. 200 health calls from 20 concurrent callers against a sandbox limiting to 10 requests per second,
 *    with the client's own limiter at its default: how many 429s the server sent, and the rate achieved.
 * 2. The client's overhead per call, limiter on: each call through the client is paired with a bare
 *    undici request for the same route, and the difference is taken pair by pair. The figures are the
 *    median and p99 of those per-call differences and their mean with a 95 % interval. (A difference of
 *    two separate p99s is not the p99 of anything, and printed a negative overhead.)
 */
import { performance } from "node:perf_hooks";
import { Agent } from "undici";
import { ServiceClient } from "../../provider/client/index";
import { DEMO_TOKEN, startSandbox } from "../../sandbox/index";
import { meanWithInterval, ms, percentile } from "./stats";

async function limitedRun(): Promise<void> {
  const sandbox = await startSandbox({ settings: { rateLimitPerSecond: 10 } });
  const client = new ServiceClient({ token: DEMO_TOKEN, baseUrl: sandbox.url });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < 200) {
        next++;
        await client.health();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const served = sandbox.requests();
  const tooMany = served.filter((r) => r.status === 429).length;
  console.log("limited sandbox (10 req/s), 200 health calls, 20 concurrent callers, client limiter 10 req/s");
  console.log(`  429 responses sent by the server: ${tooMany} (goal 0)`);
  console.log(`  requests answered:                ${served.length}`);
  console.log(`  achieved rate:                    ${(200 / seconds).toFixed(2)} req/s (goal >= 9.5)`);
  await sandbox.close();
}

/** Pairs measured, after as many again to warm up both paths (JIT, connections). */
const PAIRS = 3000;
/**
 * High enough never to make a caller wait: calls here are sequential, a few thousand a second. The
 * limiter still does all its bookkeeping for every call.
 */
const NEVER_THROTTLES = 100_000;

async function overheadRun(): Promise<void> {
  const sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
  const client = new ServiceClient({
    token: DEMO_TOKEN,
    baseUrl: sandbox.url,
    rateLimitPerSecond: NEVER_THROTTLES,
  });
  const agent = new Agent({ keepAliveTimeout: 4000 });
  // What the client sends and does with the answer, without the client: same headers, JSON parsed.
  const headers = {
    authorization: `Token ${DEMO_TOKEN}`,
    "api-version": "1.4",
    "accept-language": "en",
    "content-type": "application/json",
    "user-agent": "@service/pulumi",
  };
  const bare = async () => {
    const t = performance.now();
    const res = await agent.request({ origin: sandbox.url, path: "/v1/health", method: "GET", headers });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode !== 200 || body.status !== "ok") throw new Error(`bare request: ${res.statusCode}`);
    return performance.now() - t;
  };
  const viaClient = async () => {
    const t = performance.now();
    await client.health();
    return performance.now() - t;
  };

  const bareTimes: number[] = [];
  const clientTimes: number[] = [];
  const differences: number[] = [];
  for (let i = -PAIRS; i < PAIRS; i++) {
    // Alternate which goes first, so that whatever favours the first or second of a pair cancels out.
    let b: number;
    let c: number;
    if (i % 2 === 0) {
      b = await bare();
      c = await viaClient();
    } else {
      c = await viaClient();
      b = await bare();
    }
    if (i < 0) continue;
    bareTimes.push(b);
    clientTimes.push(c);
    differences.push(c - b);
  }

  const { mean, halfWidth } = meanWithInterval(differences);
  const failed = sandbox.requests().filter((r) => r.status !== 200).length;
  console.log(
    `unlimited sandbox, ${PAIRS} interleaved pairs of health calls (client limiter on at ${NEVER_THROTTLES} req/s)`,
  );
  console.log(
    `  latency p50: bare undici ${ms(percentile(bareTimes, 50))}, client ${ms(percentile(clientTimes, 50))}`,
  );
  console.log(
    `  overhead per call: p50 ${ms(percentile(differences, 50))}, p99 ${ms(percentile(differences, 99))}`,
  );
  console.log(`  overhead per call: mean ${ms(mean)} ± ${ms(halfWidth)} (95 % interval) (goal < 2 ms)`);
  console.log(`  non-200 answers: ${failed}`);
  await agent.close();
  await sandbox.close();
}

async function main(): Promise<void> {
  await limitedRun();
  await overheadRun();
}

void main();
