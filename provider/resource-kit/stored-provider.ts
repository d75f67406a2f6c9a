import type * as pulumi from "@pulumi/pulumi";

/**
 * The dynamic provider of every resource type in this package, as Pulumi stores it in the stack's state.
 * Pulumi serializes it, so its methods capture nothing from this module: each requires the runtime
 * contract (`@service/pulumi/runtime`) when it runs. That keeps the stored text around a kilobyte and free
 * of secrets, and runs the installed code rather than a frozen copy. `resource` is the key a resource's
 * declaration (registry.ts) is served under, and the only state.
 */
export class StoredProvider implements pulumi.dynamic.ResourceProvider {
  constructor(readonly resource: string) {}

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
