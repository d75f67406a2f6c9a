// One program's construction of webhooks, for `npm run bench:program` (program-construction.mts), as
// `pulumi` runs a Node.js program: under source-map-support's stack formatter (which Pulumi's program
// runner installs first) and with Pulumi's mocks standing in for the engine. Arguments: the variant
// ("package" or "peer") and how many webhooks. Prints one JSON line: the package's load, the first
// construction and the others, in ms.
"use strict";
require("source-map-support/register");
const pulumi = require("@pulumi/pulumi");

const [variant, count] = [process.argv[2], Number(process.argv[3])];
pulumi.runtime.setMocks(
  { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
  "bench",
  "bench",
  true,
);
const loadStarted = performance.now();
const service = variant === "package" ? require("@service/pulumi") : undefined;
const loadMs = performance.now() - loadStarted;
const peer = require("./webhooks-program/peer-provider.js");

const times = [];
for (let i = 0; i < count; i++) {
  const args = {
    endpoint: "https://hooks.bench.test/service/events",
    secretKey: pulumi.secret("bench-webhook-secret-0001"),
    channel: `channel-${i}`,
    filters: [{ key: "activity.name", value: "authentication" }],
  };
  const started = performance.now();
  if (service) new service.Webhook(`hook-${i}`, args, { deleteBeforeReplace: true });
  else new pulumi.dynamic.Resource(peer, `hook-${i}`, { ...args, token: "t", baseUrl: "b" });
  times.push(performance.now() - started);
}
process.stdout.write(`${JSON.stringify({ loadMs, firstMs: times[0], restMs: times.slice(1) })}\n`);
// The mocks would register them next: not part of what is measured. Pulumi's check for leaked promises
// would report them and fail the exit, so it does not run.
process.removeAllListeners("exit");
process.exit(0);
