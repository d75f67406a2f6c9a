/**
 * `service-sandbox demo`: the whole loop in one command, with no Pulumi CLI and no account. A sandbox and
 * a receiver of the user's kind (demo-receiver.ts) start on loopback; the demo registers a domain through
 * the API (plain HTTP, the requests any language would send) whose verification file the receiver serves,
 * creates a webhook that posts to the receiver, and the
 * sandbox delivers two snapshots of a session. Then an old snapshot arrives late (the counter guard skips
 * it) and a forged one arrives (the signature check refuses it). Nothing secret is printed.
 */
import { randomBytes } from "node:crypto";
import { signatureFor } from "./deliveries";
import { startDemoReceiver } from "./demo-receiver";
import { startSandbox } from "./index";

/** How the demo runs; the defaults suit the command line. */
export interface DemoOptions {
  /** Where each line goes; stdout by default. */
  readonly write?: (line: string) => void;
  /** The demo organization's API token; random by default. */
  readonly token?: string;
  /** The webhook's secret key; random by default. */
  readonly secretKey?: string;
}

/** The hostname the demo registers; the sandbox's seed maps it to the receiver. */
const HOST = "hooks.demo.test";
const ORGANIZATION = "demo";

const random = () => randomBytes(24).toString("base64url");

/** One POST to the sandbox's v2 API, answered as JSON; any other status than 200 stops the demo. */
async function callApi(
  baseUrl: string,
  token: string,
  path: string,
  body: unknown,
): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Token ${token}`, "api-version": "2.0", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, string>;
}

/** Runs the loop once and resolves when both servers are closed; rejects if a step fails. */
export async function runDemo(options: DemoOptions = {}): Promise<void> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const token = options.token ?? random();
  const secretKey = options.secretKey ?? random();
  const handled: string[] = [];
  const receiver = await startDemoReceiver(secretKey, {
    onItem: (item, delivery) => {
      handled.push(item.service_id);
      const result = "status" in item ? item.status.result?.display : undefined;
      write(
        `   received by your receiver: ${item.activity.name} ${item.service_id}, update_counter ${item.update_counter}` +
          `${result ? `, result "${result}"` : ""} (webhook ${delivery.webhookUuid}, channel ${delivery.channel}, signature verified with secret #${delivery.secretIndex})`,
      );
    },
    onFailure: (failure) => write(`   refused by your receiver with ${failure.status}: ${failure.message}`),
  });
  const sandbox = await startSandbox({
    seed: {
      organizations: [{ name: ORGANIZATION, users: ["demo-alice"], tokens: [{ token, webhooks: true }] }],
      // The sandbox reaches https://hooks.demo.test at the receiver, for the verification file and deliveries.
      hosts: { [HOST]: receiver.origin },
    },
  });
  try {
    write(`sandbox ${sandbox.url}; your receiver ${receiver.origin} stands in for https://${HOST}`);
    const api = (path: string, body: unknown) => callApi(sandbox.url, token, path, body);

    write(`1. register the domain ${HOST}`);
    const start = await api("/v2/domains/start_registration", { domain_name: HOST });
    receiver.publish(new URL(start.url!).pathname, start.register_token!);
    write(`   your receiver serves the verification file at ${start.url}`);
    const domain = await api("/v2/domains/finish_registration", {
      domain_name: HOST,
      verifier: start.verifier,
    });
    write(`   verified: domain ${domain.domain_uuid}`);

    write("2. create a webhook for authentications");
    const endpoint = `https://${HOST}${receiver.eventsPath}`;
    const hook = await api("/v2/webhooks", {
      endpoint: { type: "url", value: endpoint },
      secret_key: secretKey,
      filters: [{ key: "activity.name", value: "authentication" }],
      channel: "demo",
    });
    write(`   webhook ${hook.webhook_uuid} posts to ${endpoint}`);

    write("3. an authentication happens, then changes: two deliveries");
    const first = sandbox.upsertSession({ organization: ORGANIZATION, kind: "authentication" });
    await sandbox.deliveriesIdle();
    sandbox.upsertSession({
      organization: ORGANIZATION,
      kind: "authentication",
      service_id: first.service_id,
      item: { status: { result: { id: "unidentified" } } },
    });
    await sandbox.deliveriesIdle();

    const [older, newer] = sandbox.deliveries();
    if (!older || !newer)
      throw new Error(`expected two deliveries, the sandbox made ${sandbox.deliveries().length}`);
    const post = (body: string, signature: string) =>
      fetch(`${receiver.origin}${receiver.eventsPath}`, {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": signature },
        body,
      });

    write("4. the first delivery arrives again, late (deliveries may come out of order)");
    const before = handled.length;
    const late = await post(older.body, older.signature);
    write(
      `   answered ${late.status}; handleItem ${handled.length === before ? "was not called: update_counter 1 is older than the 2 already processed" : "was called"}`,
    );

    write("5. a delivery signed with another secret arrives");
    const forged = await post(newer.body, signatureFor(newer.body, random()));
    write(
      `   answered ${forged.status}; the service would retry it, and it goes through once the secret is right`,
    );

    write(
      "Done: create, verify, deliver, verify the signature, guard the counter. This demo's code: dist/sandbox/demo-loop.js and demo-receiver.js in @service/pulumi.",
    );
  } finally {
    await sandbox.close();
    await receiver.close();
  }
}
