/**
 * The rotation of a webhook's secret in two updates, as plain values: which secrets the receiver holds at
 * each step, and what the rotation records for `service-pulumi review`. The Pulumi side (rotation.ts)
 * wraps it; review reads the record from a preview without loading Pulumi.
 */
import { ConfigurationError } from "../errors/base";
import { secretFingerprint } from "./secrets";

/**
 * The type token of a SecretRotation. Review finds a rotation in a preview by it, whether a TypeScript
 * program made it with the class or a Python program with `pulumi.ComponentResource`.
 */
export const SECRET_ROTATION_TYPE = "service:index:SecretRotation";

/**
 * A step of a rotation: 1, the receiver accepts the new and the old secret, and the webhook is replaced
 * with the new one after the receiver's update; 2, a later update, the receiver drops the old secret.
 */
export type RotationStep = 1 | 2;

/** What a rotation records where review reads it (the component's inputs): no secret, only fingerprints. */
export interface RotationRecord {
  /** The step the program is at. */
  readonly step: RotationStep;
  /** The name of the Webhook resource whose secret rotates. */
  readonly webhook: string;
  /** The fingerprint (`secretFingerprint`) of each secret the receiver must hold, the new one first. */
  readonly receiverHolds: readonly string[];
}

/**
 * The secrets the receiver holds at `step`, the new one first: the new and the old at step 1, the new
 * alone at step 2. `where` names the rotation in the failure when step 1 lacks the old secret or the two
 * are the same.
 */
export function receiverSecretsAt(
  step: RotationStep,
  newSecret: string,
  oldSecret: string | undefined,
  where: string,
): string[] {
  if (step !== 1 && step !== 2) {
    throw new ConfigurationError(
      `${where}: step is ${JSON.stringify(step)}; give 1 (the receiver accepts the new and the old secret, and the webhook is replaced) or 2 (a later update drops the old secret).`,
    );
  }
  if (step === 2) return [newSecret];
  if (oldSecret === undefined) {
    throw new ConfigurationError(
      `${where}: step 1 needs oldSecret, the secret the webhook signs with now, so that the receiver keeps accepting its deliveries until the replacement is done.`,
    );
  }
  if (oldSecret === newSecret) {
    throw new ConfigurationError(
      `${where}: step 1 has the same newSecret and oldSecret (fingerprint ${secretFingerprint(newSecret)}), so nothing rotates: give the new secret as newSecret.`,
    );
  }
  return [newSecret, oldSecret];
}
