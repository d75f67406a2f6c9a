import * as pulumi from "@pulumi/pulumi";
import { type RotationStep, receiverSecretsAt, SECRET_ROTATION_TYPE } from "./rotation-step";
import { secretFingerprint } from "./secrets";

/** The inputs of a SecretRotation. */
export interface SecretRotationArgs {
  /**
   * 1: the receiver accepts the new and the old secret, and the webhook is replaced with the new one
   * after the receiver's update. 2 (a later `pulumi up`, once the old webhook's retries have stopped):
   * the receiver drops the old secret; the webhook does not change.
   */
  readonly step: RotationStep;
  /** The name of the Webhook resource whose secret rotates; review names it. */
  readonly webhook: string;
  /** The secret the webhook signs with from step 1 on. Read from a secret config value. */
  readonly newSecret: pulumi.Input<string>;
  /** The secret the webhook signs with before step 1; required at step 1, ignored at step 2. */
  readonly oldSecret?: pulumi.Input<string>;
}

/**
 * A webhook secret's rotation in two `pulumi up`s, so that no delivery fails its signature and none is
 * lost. It gives the Webhook its `secretKey`, the receiver the list of secrets it accepts, and the
 * `dependsOn` that replaces the webhook only after the receiver's update; each secret stays a Pulumi
 * secret. It records the step and the fingerprints (`secretFingerprint`) of the secrets the receiver
 * must hold, which `service-pulumi review` reads from a preview to say which step a change is at.
 *
 * 1. `step: 1`, with `oldSecret`: the receiver accepts both secrets; the webhook is replaced (created
 *    with the new secret, then the old one deactivated) once the receiver has been updated.
 * 2. `step: 2`, a later update: the receiver holds the new secret alone.
 *
 * A receiver outside the program (another stack, a deploy of its own) must hold `receiverSecrets` before
 * the step's `pulumi up`: give `dependsOn` no resource then.
 *
 * @example
 * ```ts
 * import * as aws from "@pulumi/aws";
 * import * as pulumi from "@pulumi/pulumi";
 * import { SecretRotation, Webhook } from "@service/pulumi";
 *
 * const config = new pulumi.Config();
 * const rotation = new SecretRotation("orders-rotation", {
 *   step: 1,
 *   webhook: "orders",
 *   newSecret: config.requireSecret("webhookSecret"),
 *   oldSecret: config.requireSecret("oldWebhookSecret"),
 * });
 * declare const role: aws.iam.Role;
 * const receiver = new aws.lambda.Function("receiver", {
 *   role: role.arn,
 *   runtime: "nodejs22.x",
 *   handler: "index.handler",
 *   code: new pulumi.asset.FileArchive("./receiver"),
 *   // createLambdaHandler({ secrets: process.env.WEBHOOK_SECRETS!.split(","), ... })
 *   environment: { variables: { WEBHOOK_SECRETS: rotation.receiverSecrets.apply((s) => s.join(",")) } },
 * });
 * new Webhook(
 *   "orders",
 *   {
 *     endpoint: "https://hooks.example.com/service/events",
 *     secretKey: rotation.secretKey,
 *     filters: [{ key: "activity.name", value: "authentication" }],
 *   },
 *   { dependsOn: rotation.dependsOn(receiver) },
 * );
 * ```
 */
export class SecretRotation extends pulumi.ComponentResource {
  /** The step, as given. */
  readonly step: RotationStep;
  /** The Webhook's `secretKey`: the new secret, a Pulumi secret. */
  readonly secretKey: pulumi.Output<string>;
  /** The secrets the receiver accepts, the new one first: both at step 1, the new alone at step 2. A Pulumi secret. */
  readonly receiverSecrets: pulumi.Output<string[]>;
  /** The fingerprint of each of `receiverSecrets`, in the same order: not secret, safe to export and log. */
  readonly receiverHolds: pulumi.Output<string[]>;

  /**
   * @param name - The rotation's name, such as `orders-rotation`.
   * @param args - The step, the Webhook's name and the secrets.
   * @param opts - Resource options of the component.
   */
  constructor(name: string, args: SecretRotationArgs, opts: pulumi.ComponentResourceOptions = {}) {
    const where = `SecretRotation ${name}`;
    const secrets = pulumi
      .all([args.newSecret, args.oldSecret])
      .apply(([newSecret, oldSecret]) => receiverSecretsAt(args.step, newSecret, oldSecret, where));
    const receiverHolds = pulumi.unsecret(secrets.apply((list) => list.map(secretFingerprint)));
    // Only the record review reads reaches the component's inputs: no secret, whatever the engine shows.
    super(SECRET_ROTATION_TYPE, name, { step: args.step, webhook: args.webhook, receiverHolds }, opts);
    this.step = args.step;
    this.secretKey = pulumi.secret(args.newSecret);
    this.receiverSecrets = pulumi.secret(secrets);
    this.receiverHolds = receiverHolds;
    this.registerOutputs({ step: args.step, webhook: args.webhook, receiverHolds });
  }

  /**
   * The Webhook's `dependsOn`: the resources the receiver is deployed by (a Lambda function, its
   * configuration), so that at step 1 the webhook is replaced only once the receiver accepts the new
   * secret. With no receiver in the program, it is empty: update the receiver before `pulumi up`.
   */
  dependsOn(...receiver: pulumi.Resource[]): pulumi.Resource[] {
    return [...receiver];
  }
}
