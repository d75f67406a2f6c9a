// A user's program with a plain dynamic provider of its own beside this package's resources. It records,
// in the file the stack config `globalsLog` names, a snapshot of what a library could change process-wide
// (test/helpers/process-globals.cjs, path in `globalsHelper`):
// - in the program: once "probe-before" is registered (Pulumi's SDK has made its first resource, and its
//   closure serializer has read every global once) and before the package is loaded; and again once the
//   package's resources and "probe-after" are registered;
// - in the dynamic-provider host, which serves every dynamic provider of the program: at each call of the
//   plain provider. "probe-before" is registered first and this package's resources depend on it, so its
//   calls come before the host loads the package; "probe-after" depends on them, so its calls come after
//   theirs. A destroy deletes in the reverse order.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const log = config.require("globalsLog");
const helper = config.require("globalsHelper");

/**
 * zod, found as the package finds it, from the project's node_modules. zod makes its shared settings the
 * first time any copy loads and fills in its defaults as its first schema is made, whoever does it
 * (test/helpers/changed-globals.ts): each snapshot is taken in a process that has made a zod
 * schema, as a program or provider that uses zod has, so that a setting the package changed would show.
 */
const zodFile = require.resolve("zod");

/** Appends what `where` sees of the process's globals to the log. */
async function record(where, logFile, helperFile, zodPath) {
  const { z } = require(zodPath);
  z.object({ name: z.string() });
  const globals = require(helperFile);
  await globals.settle();
  const line = { where, pid: process.pid, loaded: globals.loadedPackage(), snapshot: globals.snapshot() };
  require("node:fs").appendFileSync(logFile, `${JSON.stringify(line)}\n`);
}

/** A plain dynamic provider, as any program may have: each call records what its host sees. */
const probe = {
  // As the package's providers have one: the host sets up the same for both (Pulumi's own global store,
  // which it makes to name the project for the first provider that has a configure).
  async configure() {},
  async check(_olds, news) {
    await record(`host ${news.name} check`, news.log, news.helper, news.zod);
    return { inputs: news };
  },
  async diff(_id, _olds, news) {
    await record(`host ${news.name} diff`, news.log, news.helper, news.zod);
    return { changes: false };
  },
  async create(inputs) {
    await record(`host ${inputs.name} create`, inputs.log, inputs.helper, inputs.zod);
    return { id: inputs.name, outs: inputs };
  },
  async delete(_id, props) {
    await record(`host ${props.name} delete`, props.log, props.helper, props.zod);
  },
};
// With a secret input, as the package's resources have: the host handles secrets alike for both.
const probeResource = (name, opts) =>
  new pulumi.dynamic.Resource(
    probe,
    name,
    { name, log, helper, zod: zodFile, secret: pulumi.secret(name) },
    opts,
  );

module.exports = async () => {
  const before = probeResource("probe-before");
  await new Promise((resolve) => before.urn.apply(resolve));
  await record("program before", log, helper, zodFile);

  const service = require("@service/pulumi");
  const host = config.require("host");
  const domain = new service.Domain(
    "hooks",
    { domainName: host, publish: service.directoryPublisher(config.require("filesDir")), timeout: 30 },
    { dependsOn: [before] },
  );
  const webhook = new service.Webhook(
    "orders",
    {
      endpoint: `https://${host}/service/events`,
      secretKey: config.requireSecret("webhookSecret"),
      channel: "orders",
      filters: [{ key: "activity.name", value: "authentication" }],
    },
    { dependsOn: [before, domain] },
  );
  const after = probeResource("probe-after", { dependsOn: [domain, webhook] });
  await new Promise((resolve) => pulumi.all([domain.urn, webhook.urn, after.urn]).apply(resolve));
  await record("program after", log, helper, zodFile);
};
