/**
 * npm run bench:sandbox
 * 1. Requests per second for a mixed webhook, domain and search load from 50 concurrent clients, rate
 *    limiting off: 10 clients cycle webhooks through create/get/search/deactivate, 5 cycle domains
 *    through start/finish (with its verification fetch)/search/deactivate, and the rest search. The
 *    load runs in a worker thread, so the sandbox has the main thread (and the stand-in host) to itself.
 * 2. Resident memory after 10,000 stored sessions, measured first, before the load runs.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Pool } from "undici";
import { startSandbox } from "../../sandbox/index";

const TOKEN = "bench-token";
const HOST = "hooks.bench.test";
const SECONDS = 5;
const CLIENTS = 50;
const WEBHOOK_CLIENTS = 10;
const DOMAIN_CLIENTS = 5;
/** The hostname each domain-cycling client registers and removes, over and over. */
const cycledDomain = (i: number) => `d${i}.bench.test`;

async function load(url: string): Promise<{ requests: number; seconds: number; failures: number }> {
  const pool = new Pool(url, { connections: CLIENTS });
  let failures = 0;
  const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
    const res = await pool.request({
      method,
      path,
      headers: {
        authorization: `Token ${TOKEN}`,
        "api-version": path.startsWith("/v1") ? "1.4" : "2.0",
        "content-type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) failures++;
    return text ? JSON.parse(text) : undefined;
  };
  const hookBody = {
    endpoint: { type: "url", value: `https://${HOST}/events` },
    secret_key: "bench-secret-0123456789",
    filters: [{ key: "activity.name", value: "authentication" }],
  };
  // At most 10 webhooks may be active, so 10 clients cycle through create/get/deactivate.
  const cycle = async (): Promise<number> => {
    const made = await call("POST", "/v2/webhooks", hookBody);
    await call("GET", `/v2/webhooks/${made.webhook_uuid}`);
    await call("POST", "/v2/search/webhooks", { limit: 20 });
    await call("POST", "/v2/search/domains", {});
    await call("POST", `/v2/webhooks/${made.webhook_uuid}/deactivate`);
    return 5;
  };
  const domainCycle = async (i: number): Promise<number> => {
    const domain_name = cycledDomain(i);
    const start = await call("POST", "/v2/domains/start_registration", { domain_name });
    const done = await call("POST", "/v2/domains/finish_registration", {
      domain_name,
      verifier: start.verifier,
    });
    await call("POST", "/v2/search/domains", { limit: 20 });
    await call("POST", `/v2/domains/${done.domain_uuid}/deactivate`);
    return 4;
  };
  const searches = async (): Promise<number> => {
    await call("POST", "/v2/search/webhooks", {});
    await call("POST", "/v1/search/domains", {});
    await call("GET", "/v1/health");
    return 3;
  };
  let requests = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      while (performance.now() < deadline) {
        const n =
          i < WEBHOOK_CLIENTS
            ? await cycle()
            : i < WEBHOOK_CLIENTS + DOMAIN_CLIENTS
              ? await domainCycle(i)
              : await searches();
        requests += n;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { requests, seconds, failures };
}

async function main(): Promise<void> {
  // The stand-in for every bench host publishes the register token of whichever registration is pending.
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  const origin = createServer((req, res) => {
    const verifier = (req.url ?? "").split("/").pop();
    const pending = [...(sandbox?.store.pending.values() ?? [])].find((p) => p.verifier === verifier);
    res.end(pending?.registerToken ?? "");
  });
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", r));
  const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  const hostnames = [HOST, ...Array.from({ length: CLIENTS }, (_, i) => cycledDomain(i))];
  sandbox = await startSandbox({
    seed: {
      organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN, webhooks: true }] }],
      hosts: Object.fromEntries(hostnames.map((h) => [h, originUrl])),
      settings: { rateLimitPerSecond: 0 },
    },
  });
  const token = sandbox.store.tokens.get(TOKEN)!;
  sandbox.store.completeRegistration(token, sandbox.store.startRegistration(token, HOST));

  global.gc?.();
  const before = process.memoryUsage();
  for (let i = 0; i < 10_000; i++) {
    sandbox.upsertSession({ organization: "bench", kind: i % 2 ? "fingerprint" : "authentication" });
  }
  global.gc?.();
  const after = process.memoryUsage();
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log("after 10,000 stored sessions");
  console.log(
    `  resident memory: ${mib(after.rss)} (heap used ${mib(after.heapUsed)}, of which the sessions ${mib(after.heapUsed - before.heapUsed)})`,
  );
  const worker = new Worker(__filename, { workerData: { url: sandbox.url } });
  const result = await new Promise<{ requests: number; seconds: number; failures: number }>(
    (resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    },
  );
  await worker.terminate();
  console.log(
    `mixed load: ${CLIENTS} concurrent clients for ${result.seconds.toFixed(1)} s, rate limiting off`,
  );
  console.log(`  requests per second: ${(result.requests / result.seconds).toFixed(0)} (goal >= 2000)`);
  console.log(`  non-200 answers:     ${result.failures}`);

  await sandbox.close();
  origin.close();
}

if (isMainThread) void main();
else void load((workerData as { url: string }).url).then((r) => parentPort!.postMessage(r));
