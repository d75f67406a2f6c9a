// Ten webhooks on one registered domain, as `npm run bench:engine` compares them. Stack configuration:
// - host, sandboxUrl (required); token and webhookSecret (secrets, required);
// - replaced: the channel of the first webhook, changed to measure a replacement;
// - variant: what makes the webhooks:
//   - "package": this package's Webhook, the token from the stack's service:token;
//   - "peer": a hand-rolled dynamic provider on fetch, as a team writes one for itself: it validates
//     nothing, refreshes each webhook with a GET, and neither paces its calls nor retries them;
//   - "nothing": a dynamic provider that does nothing, with the same inputs;
//   - "floor": components only, no provider at all (the engine's own cost for as many resources).
// Every webhook has deleteBeforeReplace, so that a replacement fits in the service's quota of 10.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const variant = config.require("variant");
const host = config.require("host");
const baseUrl = config.require("sandboxUrl");
const token = config.requireSecret("token");
const secretKey = config.requireSecret("webhookSecret");
const replaced = config.get("replaced") ?? "channel-0";

/** The peer: a hand-rolled dynamic provider on fetch (peer-provider.js). */
const peer = require("./peer-provider");

/** A dynamic provider that answers every call at once, and stores the inputs as outputs. */
const nothing = {
  async create(inputs) {
    return { id: `${inputs.channel}-id`, outs: inputs };
  },
  async diff(_id, olds, news) {
    const changed = olds.channel !== news.channel;
    return { changes: changed, replaces: changed ? ["channel"] : [], deleteBeforeReplace: true };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};

class Floor extends pulumi.ComponentResource {
  constructor(name) {
    super("bench:index:Webhook", name, {}, {});
    this.registerOutputs({});
  }
}

const make = {
  package(name, args) {
    const service = require("@service/pulumi");
    return new service.Webhook(name, args, { deleteBeforeReplace: true });
  },
  peer(name, args) {
    return new pulumi.dynamic.Resource(
      peer,
      name,
      { ...args, token, baseUrl, webhookUuid: undefined },
      {
        deleteBeforeReplace: true,
        additionalSecretOutputs: ["token", "secretKey"],
      },
    );
  },
  nothing(name, args) {
    return new pulumi.dynamic.Resource(
      nothing,
      name,
      { ...args, token, baseUrl },
      { deleteBeforeReplace: true },
    );
  },
  floor(name) {
    return new Floor(name);
  },
}[variant];

for (let i = 0; i < 10; i++) {
  make(`hook-${i}`, {
    endpoint: `https://${host}/service/events`,
    secretKey,
    channel: i === 0 ? replaced : `channel-${i}`,
    filters: [{ key: "activity.name", value: "authentication" }],
  });
}
