// One webhook through the dynamic resources, changed by stack configuration one step at a time, and the
// receiver it posts to, as a resource of the same program: its secrets are set by the program, so the
// rotation's dependsOn orders the webhook's replace after the receiver's update.
// - host, path, channel, formFactor ("" for none), deleteBeforeReplace: the webhook;
// - webhookSecret (secret); rotationStep (1 or 2, absent before the rotation) and oldWebhookSecret
//   (secret, for step 1): the rotation;
// - receiverAdmin: the loopback URL where the receiver takes the secrets it accepts.
const pulumi = require("@pulumi/pulumi");
const service = require("@service/pulumi");

const config = new pulumi.Config();
const step = config.getNumber("rotationStep");
const rotation = step
  ? new service.SecretRotation("orders-rotation", {
      step,
      webhook: "orders",
      newSecret: config.requireSecret("webhookSecret"),
      oldSecret: config.getSecret("oldWebhookSecret"),
    })
  : undefined;

/** Gives the receiver on 127.0.0.1 the secrets it accepts; nothing is stored but what the inputs hold. */
const receiverProvider = {
  async diff(_id, olds, news) {
    return {
      changes: olds.url !== news.url || JSON.stringify(olds.secrets) !== JSON.stringify(news.secrets),
    };
  },
  async create(inputs) {
    await receiverProvider.send(inputs);
    return { id: "receiver", outs: inputs };
  },
  async update(_id, _olds, news) {
    await receiverProvider.send(news);
    return { outs: news };
  },
  async send({ url, secrets }) {
    const answer = await fetch(url, { method: "POST", body: JSON.stringify({ secrets }) });
    if (answer.status !== 200) throw new Error(`the receiver at ${url} answered ${answer.status}`);
  },
};

class Receiver extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(receiverProvider, name, args, opts);
  }
}

const receiver = new Receiver("receiver", {
  url: config.require("receiverAdmin"),
  secrets: rotation ? rotation.receiverSecrets : config.requireSecret("webhookSecret").apply((s) => [s]),
});

const formFactor = config.get("formFactor");
const webhook = new service.Webhook(
  "orders",
  {
    endpoint: `https://${config.require("host")}${config.require("path")}`,
    secretKey: rotation ? rotation.secretKey : config.requireSecret("webhookSecret"),
    channel: config.require("channel"),
    filters: [
      { key: "activity.name", value: "authentication" },
      ...(formFactor ? [{ key: "activity.form_factor", value: formFactor }] : []),
    ],
  },
  {
    dependsOn: rotation ? rotation.dependsOn(receiver) : [receiver],
    deleteBeforeReplace: config.getBoolean("deleteBeforeReplace") ?? false,
  },
);

exports.webhookUuid = webhook.webhookUuid;
exports.receiverHolds = rotation?.receiverHolds;
