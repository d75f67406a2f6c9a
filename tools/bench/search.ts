/**
 * npm run bench:search
 * `authentications()` over 5,000 sessions against a sandbox limited to 10 requests per second, with the
 * client's default limiter on: the rate in items/s and its share of the limit's 250 items/s (10 pages of
 * 25 a second), the 429s the sandbox sent, and memory (heap and RSS sampled at every page, and the heap
 * left after a full GC once the first thousand items and once all items have gone by: flat means the
 * iterator holds a page, not the listing).
 *
 * The sandbox runs in a worker thread, as a remote service would, so that its work neither delays the
 * client's event loop nor counts in the client's heap. Its sessions are seeded with upsertSession.
 *
 * `-- --answer-delay-ms N` holds every search N ms before the sandbox counts and answers it, as a slow
 * service would: sequential paging then tops out at 10 pages per (1 s + N ms), since the client may
 * start the 11th request only once no server window can hold it with the first.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { ServiceClient } from "../../provider/client/index";
import { type Sandbox, startSandbox } from "../../sandbox/index";
import { ms, percentile } from "./stats";

const TOKEN = "bench-search-token";
const SESSIONS = 5000;
const PER_SECOND = 10;
const PAGE = 25;
const LIMIT_ITEMS_PER_SECOND = PER_SECOND * PAGE;
const PAGES = SESSIONS / PAGE;
const MB = 1024 * 1024;

type ToWorker = { readonly kind: "report" };
type FromWorker =
  | { readonly kind: "ready"; readonly url: string }
  | { readonly kind: "report"; readonly requests: number; readonly tooMany: number };

async function serveSandbox(answerDelayMs: number): Promise<void> {
  const sandbox: Sandbox = await startSandbox({
    seed: { organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN }] }] },
    settings: { rateLimitPerSecond: PER_SECOND },
  });
  for (let i = 0; i < SESSIONS; i++) {
    sandbox.upsertSession({
      organization: "bench",
      kind: "authentication",
      item: { text_fields: { customer_item_id: `SKU-${i}` } },
    });
  }
  if (answerDelayMs > 0) {
    sandbox.addFault({ method: "POST", path: "/v2/search/*", delayMs: answerDelayMs, count: 10 * SESSIONS });
  }
  const port = parentPort!;
  port.on("message", async (message: ToWorker) => {
    if (message.kind !== "report") return;
    const served = sandbox.requests();
    const report: FromWorker = {
      kind: "report",
      requests: served.length,
      tooMany: served.filter((r) => r.status === 429).length,
    };
    port.postMessage(report);
    await sandbox.close();
    port.close();
  });
  port.postMessage({ kind: "ready", url: sandbox.url } satisfies FromWorker);
}

function nextMessage(worker: Worker): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/** The heap left once everything unreachable is collected (needs --expose-gc). */
function retainedHeap(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  if (typeof globalThis.gc !== "function")
    throw new Error("run with node --expose-gc (npm run bench:search)");
  const { values } = parseArgs({ options: { "answer-delay-ms": { type: "string", default: "0" } } });
  const answerDelayMs = Number(values["answer-delay-ms"]);
  const worker = new Worker(__filename, { workerData: { answerDelayMs } });
  const ready = await nextMessage(worker);
  if (ready.kind !== "ready") throw new Error(`the sandbox worker sent ${ready.kind} first`);
  const client = new ServiceClient({ token: TOKEN, baseUrl: ready.url });

  let count = 0;
  let peakHeap = 0;
  let peakRss = 0;
  let retainedAfterFirst = 0;
  let retainedAtEnd = 0;
  /** When each page arrived (its first item): a fixed-size record of the bench, not of the client. */
  const arrivals = new Float64Array(PAGES);
  const started = performance.now();
  for await (const item of client.authentications.iterate()) {
    count++;
    if (item.activity.name !== "authentication") throw new Error(`item ${count} is not an authentication`);
    if (count % PAGE === 1) {
      arrivals[Math.floor(count / PAGE)] = performance.now();
      const { heapUsed, rss } = process.memoryUsage();
      peakHeap = Math.max(peakHeap, heapUsed);
      peakRss = Math.max(peakRss, rss);
    }
    // Measured inside the loop, while the iterator is alive: whatever it keeps is still reachable.
    if (count === 1000) retainedAfterFirst = retainedHeap();
    if (count === SESSIONS) retainedAtEnd = retainedHeap();
  }
  const ended = performance.now();

  worker.postMessage({ kind: "report" } satisfies ToWorker);
  const report = await nextMessage(worker);
  if (report.kind !== "report") throw new Error(`the sandbox worker sent ${report.kind}`);

  const rate = count / ((ended - started) / 1000);
  // Pages come in bursts of PER_SECOND, one burst per window; whole bursts after the first one (which
  // no earlier request slows) give the sustained rate.
  const first = PER_SECOND;
  const last = first + PER_SECOND * Math.floor((PAGES - 1 - first) / PER_SECOND);
  const steadyRate = ((last - first) * PAGE) / ((arrivals[last]! - arrivals[first]!) / 1000);
  const gaps = Array.from(arrivals.subarray(1), (at, i) => at - arrivals[i]!);
  // A gap within a burst is one page's round trip; the gaps between bursts are the limiter's waits.
  const roundTrip = percentile(
    gaps.filter((gap) => gap < 500),
    50,
  );
  const share = (r: number) => `${((100 * r) / LIMIT_ITEMS_PER_SECOND).toFixed(1)} %`;
  const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const growth = retainedAtEnd - retainedAfterFirst;
  console.log(
    `authentications() over ${SESSIONS} sessions, sandbox limited to ${PER_SECOND} req/s, client limiter on, answers held ${answerDelayMs} ms`,
  );
  console.log(`  items read:                      ${count} (goal ${SESSIONS})`);
  console.log(`  requests the sandbox answered:   ${report.requests}`);
  console.log(`  429 responses sent by the server: ${report.tooMany} (goal 0)`);
  console.log(
    `  rate, whole run:                 ${rate.toFixed(1)} items/s = ${share(rate)} of ${LIMIT_ITEMS_PER_SECOND}`,
  );
  console.log(
    `  rate, sustained (pages ${first + 1}-${last}):  ${steadyRate.toFixed(1)} items/s = ${share(steadyRate)} of ${LIMIT_ITEMS_PER_SECOND} (goal >= 95 %)`,
  );
  console.log(
    `  page round trip p50:             ${ms(roundTrip)} (sequential paging is capped at ${PER_SECOND} pages per 1 s + one round trip)`,
  );
  console.log(
    `  peak heap / RSS, every page:     ${mb(peakHeap)} (client thread) / ${mb(peakRss)} (process, sandbox worker included)`,
  );
  console.log(
    `  heap after GC, item 1000 / ${count}: ${mb(retainedAfterFirst)} / ${mb(retainedAtEnd)} (growth ${mb(growth)}; goal: flat, well under one MB)`,
  );
  await worker.terminate();
  if (count !== SESSIONS || report.tooMany > 0 || growth > MB) process.exitCode = 1;
}

if (isMainThread) void main();
else void serveSandbox((workerData as { answerDelayMs: number }).answerDelayMs);
