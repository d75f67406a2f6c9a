import * as pulumi from "@pulumi/pulumi";
import type { AcceptLanguage, ConnectionInput } from "../api/shapes";
import type { Publisher } from "../publishers/publisher";
import { DOMAIN_COMPONENT_TYPE } from "./declaration";
import { DomainRegistration, DomainVerification } from "./resource";

/** Inputs of the Domain component. */
export interface DomainArgs {
  /** A bare hostname, such as hooks.example.com. */
  readonly domainName: pulumi.Input<string>;
  /** Makes the verification file public: s3Publisher(...), directoryPublisher(...) or your own. */
  readonly publish?: Publisher;
  /** Seconds to wait for the file to be served (default 600); the link's expiry caps it. */
  readonly timeout?: pulumi.Input<number>;
  /** Take over a domain that is already registered: nothing is published and nothing is finished. */
  readonly adopt?: boolean;
  /** Credentials for this domain only, ahead of the stack config and the environment. Stored as a secret. */
  readonly connection?: pulumi.Input<ConnectionInput>;
  /** Display language of the service's answers; default from service:acceptLanguage, else "en". */
  readonly acceptLanguage?: pulumi.Input<AcceptLanguage>;
}

/**
 * The options given to the component that its steps must carry themselves: Pulumi passes `protect` and
 * providers down to children, but not these.
 */
function stepOptions(opts: pulumi.ComponentResourceOptions): pulumi.CustomResourceOptions {
  const { retainOnDelete, customTimeouts, deletedWith } = opts;
  return {
    ...(retainOnDelete === undefined ? {} : { retainOnDelete }),
    ...(customTimeouts === undefined ? {} : { customTimeouts }),
    ...(deletedWith === undefined ? {} : { deletedWith }),
  };
}

/**
 * A webhook domain, verified as code: a DomainRegistration (start), whatever `publish` returns for the
 * verification file, then a DomainVerification (finish) that depends on it. Webhooks on the domain
 * should `dependsOn` this component, so that they are created after it and deleted before it.
 *
 * `retainOnDelete`, `customTimeouts` and `deletedWith` given to the component apply to every step and to
 * the published file; `dependsOn` applies to the first step (and so, through it, to all of them).
 */
export class Domain extends pulumi.ComponentResource {
  /** The verified hostname. */
  readonly domainName: pulumi.Output<string>;
  /** The service's domain_uuid. */
  readonly domainUuid: pulumi.Output<string>;
  /** The verification URL; undefined for an adopted domain. */
  readonly url: pulumi.Output<string | undefined>;
  /** "registered", or "adopted". */
  readonly status: pulumi.Output<"registered" | "adopted">;
  /** The start step; undefined for an adopted domain. */
  readonly registration: DomainRegistration | undefined;
  /** The finish step, which stands for the registered domain. */
  readonly verification: DomainVerification;

  constructor(name: string, args: DomainArgs, opts: pulumi.ComponentResourceOptions = {}) {
    // domainName is recorded on the component too, so that policies and `pulumi stack` can see it.
    super(DOMAIN_COMPONENT_TYPE, name, { domainName: args.domainName }, opts);
    const common = { connection: args.connection, acceptLanguage: args.acceptLanguage };
    const steps = { parent: this, ...stepOptions(opts) };
    if (args.adopt) {
      this.registration = undefined;
      this.verification = new DomainVerification(
        `${name}-verification`,
        { domainName: args.domainName, adopt: true, timeout: args.timeout, ...common },
        { ...steps, dependsOn: opts.dependsOn },
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
        { ...steps, dependsOn: opts.dependsOn },
      );
      const published = [
        args.publish(
          { key: registration.key, content: registration.registerToken, contentType: "text/plain" },
          { name: `${name}-verification-file`, parent: this, resourceOptions: steps },
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
        { ...steps, dependsOn: published },
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
