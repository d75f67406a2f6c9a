// Your receiver: one Node server for the domain's verification file and the webhook's deliveries.
// The sandbox's seed (seed.json) sends https://hooks.local.test/... here, to 127.0.0.1:9000.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createNodeHandler, MemoryCounterStore } from "@service/pulumi/receiver";

const secret = process.env.WEBHOOK_SECRET;
if (!secret)
  throw new Error("receiver.mjs: set WEBHOOK_SECRET to the secret that setup.mjs gives the webhook");

const deliveries = createNodeHandler({
  secrets: [secret],
  store: new MemoryCounterStore(), // never lowers a counter, so a late delivery is skipped
  handleItem: (item, delivery) => {
    console.log(
      `delivery: ${item.activity.name} ${item.service_id} update_counter ${item.update_counter} (channel ${delivery.channel})`,
    );
  },
});

const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  const verifier = /^\/service_url_registration\/([0-9a-f]+)$/.exec(path)?.[1];
  if (req.method === "GET" && verifier) {
    // setup.mjs wrote the register token here; the sandbox fetches it to verify the domain.
    try {
      res.writeHead(200, { "content-type": "text/plain" }).end(readFileSync(`.verification/${verifier}`));
    } catch {
      res.writeHead(404).end();
    }
  } else if (path === "/service/events") {
    deliveries(req, res);
  } else {
    res.writeHead(404).end();
  }
});
server.once("error", (error) => {
  console.error(
    `receiver.mjs: cannot listen (${error.message}): stop what uses the port, or set PORT and change seed.json to match`,
  );
  process.exit(1);
});
server.listen(Number(process.env.PORT ?? 9000), "127.0.0.1", () => {
  console.log(`receiver listening on http://127.0.0.1:${server.address().port}`);
});
