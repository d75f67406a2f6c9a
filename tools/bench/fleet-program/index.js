// The fleet `npm run bench:engine` measures: N organizations, each with its own token given through a
// `connection`, and per organization a Domain and 10 Webhooks on it. Stack configuration:
// - organizations: N; sandboxUrl, filesDir (required); webhookSecret (secret, required);
// - prefix: the organizations are <prefix>-0 to <prefix>-<N-1>, each verifying hooks.<organization>.test;
// - variant: what makes the resources:
//   - "dynamic": this package's dynamic resources (what a TypeScript program gets from `new Webhook`);
//   - "plugin": the provider plugin's resources, by type token (what a Python, Go or YAML program gets);
//   - "nothing": a dynamic provider that does nothing, the same resources with the same inputs;
//   - "floor": components only, no provider at all (the engine's own cost for as many resources).
// The tokens come from SERVICE_BENCH_TOKENS (a JSON list, one per organization) and are made secrets here.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const organizations = config.requireNumber("organizations");
const prefix = config.get("prefix") ?? "bench";
const variant = config.require("variant");
const baseUrl = config.require("sandboxUrl");
const filesDir = config.require("filesDir");
const secretKey = config.requireSecret("webhookSecret");
const tokens = JSON.parse(process.env.SERVICE_BENCH_TOKENS ?? "[]");
/** How many webhooks each organization has: the service's quota. */
const HOOKS = 10;

/** A dynamic provider that answers every call at once, and stores the inputs as outputs. */
const nothing = {
  async create(inputs) {
    return { id: `${inputs.name}-id`, outs: inputs };
  },
  async diff() {
    return {};
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};

class Nothing extends pulumi.dynamic.Resource {
  constructor(type, name, props, opts) {
    super(nothing, name, { ...props, name }, opts, "bench", type);
  }
}

class Floor extends pulumi.ComponentResource {
  constructor(type, name, _props, opts) {
    super(`bench:index:${type}`, name, {}, opts);
    this.registerOutputs({});
  }
}

class PluginWebhook extends pulumi.CustomResource {
  constructor(name, props, opts) {
    super("service:index:Webhook", name, { ...props, webhookUuid: undefined }, opts);
  }
}

class PluginDomain extends pulumi.ComponentResource {
  constructor(name, props) {
    super("service:index:Domain", name, { ...props, domainUuid: undefined, status: undefined }, {}, true);
  }
}

/** The Domain's own resources, for the variants without this package: a component and its three steps. */
function stepsOf(make, name, connection, host) {
  const parent = new Floor("Domain", name, {}, {});
  const registration = make(
    "DomainRegistration",
    `${name}-registration`,
    { domainName: host, connection },
    { parent },
  );
  const file = make(
    "VerificationFile",
    `${name}-file`,
    { domainName: host },
    { parent, dependsOn: [registration] },
  );
  return make(
    "DomainVerification",
    `${name}-verification`,
    { domainName: host, connection },
    { parent, dependsOn: [file] },
  );
}

const makers = {
  dynamic() {
    const service = require("@service/pulumi");
    return {
      domain: (name, connection, host) =>
        new service.Domain(name, {
          domainName: host,
          publish: service.directoryPublisher(filesDir),
          timeout: 30,
          connection,
        }),
      webhook: (name, props, opts) => new service.Webhook(name, props, opts),
    };
  },
  plugin() {
    return {
      domain: (name, connection, host) =>
        new PluginDomain(name, { domainName: host, publishDirectory: filesDir, timeout: 30, connection }),
      webhook: (name, props, opts) => new PluginWebhook(name, props, opts),
    };
  },
  nothing() {
    const make = (type, name, props, opts) => new Nothing(type, name, props, opts);
    return {
      domain: (name, connection, host) => stepsOf(make, name, connection, host),
      webhook: (name, props, opts) => make("Webhook", name, props, opts),
    };
  },
  floor() {
    const make = (type, name, props, opts) => new Floor(type, name, props, opts);
    return {
      domain: (name, connection, host) => stepsOf(make, name, connection, host),
      webhook: (name, props, opts) => make("Webhook", name, props, opts),
    };
  },
};

const make = makers[variant]();
for (let i = 0; i < organizations; i++) {
  const organization = `${prefix}-${i}`;
  const host = `hooks.${organization}.test`;
  const connection = { token: pulumi.secret(tokens[i]), baseUrl };
  const domain = make.domain(`${organization}-domain`, connection, host);
  for (let h = 0; h < HOOKS; h++) {
    make.webhook(
      `${organization}-hook-${h}`,
      {
        endpoint: `https://${host}/service/events`,
        secretKey,
        connection,
        channel: `channel-${h}`,
        filters: [{ key: "activity.name", value: "authentication" }],
      },
      { dependsOn: [domain] },
    );
  }
}
