import type * as pulumi from "@pulumi/pulumi";

/** The lifecycle modules that the runtime entry point exports, one per dynamic resource type. */
export type RuntimeResource = "webhook" | "domainRegistration" | "domainVerification" | "verificationFile";

/**
 * The dynamic provider of every resource type in this package. Pulumi serializes it into the stack's
 * state, so its methods capture nothing from this module: each requires the package's runtime entry
 * point when it runs. That keeps the stored text around a kilobyte and free of secrets, and runs the
 * installed code rather than a frozen copy. `resource` names the lifecycle module and is the only state.
 */
export class RuntimeProvider implements pulumi.dynamic.ResourceProvider {
  constructor(readonly resource: RuntimeResource) {}

  async configure(req: pulumi.dynamic.ConfigureRequest) {
    require("@service/pulumi/runtime").configure(req.config);
  }
  async check(olds: object, news: object) {
    return require("@service/pulumi/runtime")[this.resource].check(olds, news);
  }
  async diff(id: string, olds: object, news: object) {
    return require("@service/pulumi/runtime")[this.resource].diff(id, olds, news);
  }
  async create(inputs: object) {
    return require("@service/pulumi/runtime")[this.resource].create(inputs);
  }
  async read(id: string, props: object) {
    return require("@service/pulumi/runtime")[this.resource].read(id, props);
  }
  async update(id: string, olds: object, news: object) {
    return require("@service/pulumi/runtime")[this.resource].update(id, olds, news);
  }
  async delete(id: string, props: object) {
    return require("@service/pulumi/runtime")[this.resource].remove(id, props);
  }
}
