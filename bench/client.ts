/**
 * npm run bench:client
 * 1. 200 health calls from 20 concurrent callers against a sandbox limiting to 10 requests per second:
 *    how many 429s the server sent, and the rate achieved.
 * 2. Client overhead per call against an unlimited sandbox: the client's latency minus a bare undici
 *    request's, at p50 and p99.
 */
import { performance } from "node:perf_hooks";
import { Agent } from "undici";
import { ServiceClient } from "../provider/client/index";
import { DEMO_TOKEN, startSandbox } from "../sandbox/index";
import { ms, percentile } from "./stats";

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
  console.log("limited sandbox (10 req/s), 200 health calls, 20 concurrent callers");
  console.log(`  429 responses sent by the server: ${tooMany} (goal 0)`);
  console.log(`  requests answered:                ${served.length}`);
  console.log(`  achieved rate:                    ${(200 / seconds).toFixed(2)} req/s (goal >= 9.5)`);
  await sandbox.close();
}

async function overheadRun(): Promise<void> {
  const sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
  const client = new ServiceClient({ token: DEMO_TOKEN, baseUrl: sandbox.url, rateLimitPerSecond: 0 });
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const headers = {
    authorization: `Token ${DEMO_TOKEN}`,
    "api-version": "1.4",
    "content-type": "application/json",
  };
  const N = 3000;
  const raw: number[] = [];
  const viaClient: number[] = [];
  for (let i = 0; i < 300; i++) {
    await client.health();
    await (
      await agent.request({ origin: sandbox.url, path: "/v1/health", method: "GET", headers })
    ).body.text();
  }
  // Interleave the two so that drift on the machine affects both alike.
  for (let i = 0; i < N; i++) {
    let t = performance.now();
    const res = await agent.request({ origin: sandbox.url, path: "/v1/health", method: "GET", headers });
    JSON.parse(await res.body.text());
    raw.push(performance.now() - t);
    t = performance.now();
    await client.health();
    viaClient.push(performance.now() - t);
  }
  console.log(`unlimited sandbox, ${N} sequential health calls`);
  for (const p of [50, 99]) {
    const overhead = percentile(viaClient, p) - percentile(raw, p);
    console.log(
      `  p${p}: client ${ms(percentile(viaClient, p))}, bare undici ${ms(percentile(raw, p))}, overhead ${ms(overhead)} (goal p99 < 2 ms)`,
    );
  }
  await agent.close();
  await sandbox.close();
}

async function main(): Promise<void> {
  await limitedRun();
  await overheadRun();
}

void main();
