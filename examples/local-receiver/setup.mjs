// Registers hooks.local.test (its verification file served by receiver.mjs) and creates a webhook that
// posts authentications to the receiver. The client reads SERVICE_API_TOKEN and SERVICE_BASE_URL.
import { mkdirSync, writeFileSync } from "node:fs";
import { ServiceClient } from "@service/pulumi/client";

const HOST = "hooks.local.test";
const client = new ServiceClient(); // the sandbox at http://127.0.0.1:8787 unless SERVICE_BASE_URL says otherwise

const start = await client.domains.startRegistration({ domain_name: HOST });
mkdirSync(".verification", { recursive: true });
writeFileSync(`.verification/${start.verifier}`, start.register_token);
const domain = await client.domains.finishRegistration({ domain_name: HOST, verifier: start.verifier });
console.log(`domain ${domain.domain_name} verified (${domain.domain_uuid})`);

const hook = await client.webhooks.create({
  endpoint: { type: "url", value: `https://${HOST}/service/events` },
  secret_key: process.env.WEBHOOK_SECRET,
  filters: [{ key: "activity.name", value: "authentication" }],
  channel: "local",
});
console.log(`webhook ${hook.webhook_uuid} posts to ${hook.endpoint.value}`);
