/**
 * npm run bench:domain
 * For a publisher whose file becomes visible after T = 0, 2 and 5 seconds:
 * - finish calls per domain (goal exactly 1)
 * - time from the file becoming visible to the domain being registered (goal <= 1 s)
 * - API calls per verified domain (goal <= 3: start, finish and one listing)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  domainRegistrationLifecycle as domainRegistration,
  domainVerificationLifecycle as domainVerification,
} from "../../provider/domain/declaration";
import { configure } from "../../provider/runtime-contract";
import { startSandbox } from "../../sandbox/index";

const TOKEN = "bench-token";

async function main(): Promise<void> {
  const files = new Map<string, string>();
  const origin = createServer((req, res) => {
    const body = files.get(req.url ?? "");
    res.writeHead(body === undefined ? 404 : 200).end(body ?? "not yet");
  });
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", r));
  const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  const hosts = Object.fromEntries([0, 2, 5].map((t) => [`hooks-${t}.bench.test`, originUrl]));
  const sandbox = await startSandbox({
    seed: {
      organizations: [{ name: "bench", users: ["bench-user"], tokens: [{ token: TOKEN, webhooks: true }] }],
      hosts,
      settings: { rateLimitPerSecond: 10 },
    },
  });
  const config: Record<string, string> = {
    "service:token": TOKEN,
    "service:baseUrl": sandbox.url,
    "service:hostOverrides": JSON.stringify(hosts),
  };
  const settings = configure({ get: (k: string) => config[k] });

  console.log("T (s) | finish calls | visible -> registered | API calls");
  for (const t of [0, 2, 5]) {
    const domainName = `hooks-${t}.bench.test`;
    const before = sandbox.requests().length;
    const { outs: reg } = await domainRegistration.create(settings, { domainName });
    let visibleAt = 0;
    const publish = setTimeout(() => {
      files.set(`/${reg.key}`, reg.registerToken);
      visibleAt = performance.now();
    }, t * 1000);
    const { inputs } = await domainVerification.check(settings, {}, { ...reg });
    await domainVerification.create(settings, inputs);
    const registeredAt = performance.now();
    clearTimeout(publish);
    const calls = sandbox.requests().slice(before);
    const finishes = calls.filter((r) => r.route === "/v2/domains/finish_registration").length;
    console.log(
      `${String(t).padStart(5)} | ${String(finishes).padStart(12)} | ${`${((registeredAt - visibleAt) / 1000).toFixed(3)} s`.padStart(21)} | ${calls.length} (${calls.map((c) => c.route?.split("/").pop()).join(", ")})`,
    );
  }
  console.log("goals: finish calls exactly 1; visible -> registered <= 1 s; API calls <= 3");
  await sandbox.close();
  origin.close();
}

void main();
