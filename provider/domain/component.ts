import * as pulumi from "@pulumi/pulumi";
import type { AcceptLanguage, ConnectionInput } from "../../contract/common-types";
import type { Publisher } from "../publishers/publisher";
import { DOMAIN_COMPONENT_TYPE } from "./declaration";
import {
  DomainRegistration,
  type DomainRegistrationArgs,
  DomainVerification,
  type DomainVerificationArgs,
} from "./steps";

/** Inputs of the Domain component. */
export interface DomainArgs {
  /** A bare hostname, such as hooks.example.com. */
  readonly domainName: pulumi.Input<string>;
  /** Makes the verification file public: s3Publisher(...), directoryPublisher(...) or your own. */
  readonly publish?: Publisher;
  /** Seconds to wait for the file to be served (default 600); the link's expiry caps it. */
  readonly timeout?: pulumi.Input<number>;
  /**
   * Share a domain the organization already registered (another stack's, or one registered by hand):
   * nothing is published or finished, state records that this stack did not register it (`status`
   * "adopted"), and deleting the Domain leaves the domain registered. Without it, a Domain that finds its
   * hostname registered says so at preview and at up, and shares it the same way.
   */
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

/** What a Domain reads from its first step: where and what to publish. */
export type RegistrationStep = pulumi.CustomResource &
  Pick<DomainRegistration, "url" | "verifier" | "key" | "registerToken" | "expiresAt">;
/** What a Domain reads from its last step: the registered domain. */
export type VerificationStep = pulumi.CustomResource &
  Pick<DomainVerification, "domainName" | "domainUuid" | "status">;

/**
 * How a Domain makes its two steps: as the dynamic resources in a TypeScript program, as the provider
 * plugin's own resources when the plugin constructs the component for a program in another language.
 */
export interface DomainSteps<R extends RegistrationStep, V extends VerificationStep> {
  /** Makes the start step. */
  registration(name: string, args: DomainRegistrationArgs, opts: pulumi.CustomResourceOptions): R;
  /** Makes the finish step. */
  verification(name: string, args: DomainVerificationArgs, opts: pulumi.CustomResourceOptions): V;
}

/** A Domain's steps and outputs, as buildDomain made them. */
export interface DomainParts<R extends RegistrationStep, V extends VerificationStep> {
  /** The start step; undefined for an adopted domain. */
  readonly registration: R | undefined;
  /** The finish step, which stands for the registered domain. */
  readonly verification: V;
  /** The outputs for the component to register. */
  readonly outputs: {
    readonly domainName: pulumi.Output<string>;
    readonly domainUuid: pulumi.Output<string>;
    readonly url: pulumi.Output<string | undefined>;
    readonly status: pulumi.Output<"registered" | "adopted">;
  };
}

/**
 * `args` without the members left undefined (an optional input the Domain was not given): a step
 * registers each member it is given, at the cost of four of the SDK's promises each.
 */
function given<T extends object>(args: T): T {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as T;
}

/**
 * Makes a Domain's children under `component`: a registration (start), whatever `publish` returns for the
 * verification file, then a verification (finish) that depends on it; or, to adopt, the verification
 * alone. Returns them with the outputs that the component then registers.
 */
export function buildDomain<R extends RegistrationStep, V extends VerificationStep>(
  component: pulumi.ComponentResource,
  name: string,
  args: DomainArgs,
  opts: pulumi.ComponentResourceOptions,
  make: DomainSteps<R, V>,
): DomainParts<R, V> {
  const common = { connection: args.connection, acceptLanguage: args.acceptLanguage };
  const steps = { parent: component, ...stepOptions(opts) };
  let registration: R | undefined;
  let verification: V;
  let url: pulumi.Output<string | undefined>;
  if (args.adopt) {
    verification = make.verification(
      `${name}-verification`,
      given({ domainName: args.domainName, adopt: true, timeout: args.timeout, ...common }),
      { ...steps, dependsOn: opts.dependsOn },
    );
    url = pulumi.output(undefined);
  } else {
    if (!args.publish) {
      throw new pulumi.InputPropertyError({
        propertyPath: "publish",
        reason: "is required unless adopt is true: pass s3Publisher({ bucket }) or directoryPublisher(dir)",
      });
    }
    registration = make.registration(
      `${name}-registration`,
      given({ domainName: args.domainName, ...common }),
      { ...steps, dependsOn: opts.dependsOn },
    );
    const published = [
      args.publish(
        { key: registration.key, content: registration.registerToken, contentType: "text/plain" },
        { name: `${name}-verification-file`, parent: component, resourceOptions: steps },
      ),
    ].flat();
    verification = make.verification(
      `${name}-verification`,
      given({
        domainName: args.domainName,
        verifier: registration.verifier,
        url: registration.url,
        registerToken: registration.registerToken,
        expiresAt: registration.expiresAt,
        timeout: args.timeout,
        ...common,
      }),
      { ...steps, dependsOn: published },
    );
    url = registration.url;
  }
  const outputs = {
    domainName: verification.domainName,
    domainUuid: verification.domainUuid,
    url,
    status: verification.status,
  };
  return { registration, verification, outputs };
}

/** The dynamic resources, which a TypeScript program's Domain makes. */
const DYNAMIC_STEPS: DomainSteps<DomainRegistration, DomainVerification> = {
  registration: (name, args, opts) => new DomainRegistration(name, args, opts),
  verification: (name, args, opts) => new DomainVerification(name, args, opts),
};

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
  /** "registered" by this stack (its destroy deactivates it), or "adopted" (its destroy leaves it registered). */
  readonly status: pulumi.Output<"registered" | "adopted">;
  /** The start step; undefined for an adopted domain. */
  readonly registration: DomainRegistration | undefined;
  /** The finish step, which stands for the registered domain. */
  readonly verification: DomainVerification;

  /**
   * @param name - The component's name: its identity in the stack, and the prefix of its children's.
   * @param args - The hostname, and how to publish its verification file (or `adopt`).
   * @param opts - Resource options (see the class description for those its children inherit).
   */
  constructor(name: string, args: DomainArgs, opts: pulumi.ComponentResourceOptions = {}) {
    // domainName is recorded on the component too, so that policies and `pulumi stack` can see it.
    super(DOMAIN_COMPONENT_TYPE, name, { domainName: args.domainName }, opts);
    const parts = buildDomain(this, name, args, opts, DYNAMIC_STEPS);
    this.registration = parts.registration;
    this.verification = parts.verification;
    ({
      domainName: this.domainName,
      domainUuid: this.domainUuid,
      url: this.url,
      status: this.status,
    } = parts.outputs);
    // Registered with no outputs: the steps hold the uuid, URL and status in state, and the hostname is
    // recorded above. Outputs that wait on the steps kept the registration in flight until they resolved,
    // and when the engine ended a preview or an update on another resource's failure meanwhile, the
    // Node SDK reported its refused registration as the program's unhandled exception, with a gRPC stack
    // trace after the real message (issue 42).
    this.registerOutputs({});
  }
}
