import * as pulumi from "@pulumi/pulumi";
import type { Publisher } from "../publishers/publisher";
import type { ConnectionInput } from "../runtime/credentials";
import { DomainRegistration, DomainVerification } from "./resources";

export interface DomainArgs {
  /** A bare hostname, such as hooks.example.com. */
  readonly domainName: pulumi.Input<string>;
  /** Makes the verification file public: s3Publisher(...), directoryPublisher(...) or your own. */
  readonly publish?: Publisher;
  /** Seconds to wait for the file to be served (default 600); the link's expiry caps it. */
  readonly timeout?: pulumi.Input<number>;
  /** Take over a domain that is already registered: nothing is published and nothing is finished. */
  readonly adopt?: boolean;
  readonly connection?: pulumi.Input<ConnectionInput>;
  readonly acceptLanguage?: pulumi.Input<"en" | "ja">;
}

/**
 * A webhook domain, verified as code: a DomainRegistration (start), whatever `publish` returns for the
 * verification file, then a DomainVerification (finish) that depends on it. Webhooks on the domain
 * should `dependsOn` this component, so that they are created after it and deleted before it.
 */
export class Domain extends pulumi.ComponentResource {
  readonly domainName: pulumi.Output<string>;
  readonly domainUuid: pulumi.Output<string>;
  /** The verification URL; undefined for an adopted domain. */
  readonly url: pulumi.Output<string | undefined>;
  /** "registered", or "adopted". */
  readonly status: pulumi.Output<"registered" | "adopted">;
  readonly registration: DomainRegistration | undefined;
  readonly verification: DomainVerification;

  constructor(name: string, args: DomainArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super("service:index:Domain", name, {}, opts);
    const common = { connection: args.connection, acceptLanguage: args.acceptLanguage };
    if (args.adopt) {
      this.registration = undefined;
      this.verification = new DomainVerification(
        `${name}-verification`,
        { domainName: args.domainName, adopt: true, timeout: args.timeout, ...common },
        { parent: this, dependsOn: opts.dependsOn },
      );
      this.url = pulumi.output(undefined);
    } else {
      if (!args.publish) {
        throw new pulumi.InputPropertyError({
          propertyPath: "publish",
          reason: "is required unless adopt is true: pass s3Publisher({ bucket }) or directoryPublisher(dir)",
        });
      }
      const registration = new DomainRegistration(
        `${name}-registration`,
        { domainName: args.domainName, ...common },
        { parent: this },
      );
      const published = [
        args.publish(
          { key: registration.key, content: registration.registerToken, contentType: "text/plain" },
          { name: `${name}-verification-file`, parent: this },
        ),
      ].flat();
      this.registration = registration;
      this.verification = new DomainVerification(
        `${name}-verification`,
        {
          domainName: args.domainName,
          verifier: registration.verifier,
          url: registration.url,
          registerToken: registration.registerToken,
          expiresAt: registration.expiresAt,
          timeout: args.timeout,
          ...common,
        },
        { parent: this, dependsOn: published },
      );
      this.url = registration.url;
    }
    this.domainName = this.verification.domainName;
    this.domainUuid = this.verification.domainUuid;
    this.status = this.verification.status;
    this.registerOutputs({
      domainName: this.domainName,
      domainUuid: this.domainUuid,
      url: this.url,
      status: this.status,
    });
  }
}
