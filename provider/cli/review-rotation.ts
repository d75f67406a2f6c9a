/**
 * Which step of a secret rotation a change is at, and what the receiver must hold before the merge. A
 * SecretRotation (provider/receiver/rotation.ts, or a Python program's `pulumi.ComponentResource` of the
 * same type) records its step, its Webhook's name and the fingerprints of the secrets the receiver must
 * hold in its inputs, which a preview shows; a Webhook replaced because of `secretKey` is a step one
 * even without it. The record is a pull request's: each member is checked, a fingerprint must have the
 * shape `secretFingerprint` gives, and every value is printed as a code span.
 */
import { z } from "zod";
import { inEnglish } from "../../contract/issues";
import { type RotationRecord, SECRET_ROTATION_TYPE } from "../receiver/rotation-step";
import { FINGERPRINT_PATTERN } from "../receiver/secrets";
import { endpointOf, type WebhookView } from "./deliveries";
import { codeSpan } from "./untrusted";

/** The most fingerprints a record may hold: a rotation has a new and an old secret. */
const MAX_HOLDS = 2;

const Record = z.object({
  step: z.union([z.literal(1), z.literal(2)]),
  webhook: z.string().min(1),
  receiverHolds: z.array(z.string().regex(FINGERPRINT_PATTERN)).min(1).max(MAX_HOLDS),
});

/** One SecretRotation of a preview: its resource name, whether it changes, and its record when readable. */
export interface RotationMark {
  readonly name: string;
  /** False when the preview shows it unchanged. */
  readonly changed: boolean;
  /** Undefined when its inputs are not a record review can read (a hostile or unknown shape). */
  readonly record: RotationRecord | undefined;
}

/** Whether a resource type token is a SecretRotation's. */
export const isRotation = (type: string): boolean => type === SECRET_ROTATION_TYPE;

/** The mark of a SecretRotation's step in a preview; undefined when the step deletes it. */
export function rotationMark(
  name: string,
  op: string,
  inputs: Readonly<Record<string, unknown>> | null | undefined,
): RotationMark | undefined {
  if (op === "delete" || op === "discard" || op === "delete-replaced") return undefined;
  const parsed = Record.safeParse(inputs, { error: inEnglish });
  return { name, changed: op !== "same", record: parsed.success ? parsed.data : undefined };
}

/** What review says of a rotation, and what the receiver must hold (fingerprints), as `--format json` prints it. */
export interface RotationReview {
  /** The SecretRotation's resource name, or null for a Webhook whose secret changes without one. */
  readonly rotation: string | null;
  /** The Webhook's name; null when the record is unreadable. */
  readonly webhook: string | null;
  /** 1 or 2; null when the record is unreadable. */
  readonly step: 1 | 2 | null;
  /** Fingerprints of the secrets the receiver must hold before the merge, the new one first; null when not known. */
  readonly receiverHolds: readonly string[] | null;
  /** In plain words, one sentence each. */
  readonly impact: readonly string[];
}

/** "`sha256:…` (the new secret) and `sha256:…` (the old one)". */
function holdsList(holds: readonly string[]): string {
  const [fresh, old] = holds.map((h) => codeSpan(h));
  return old === undefined
    ? `${fresh} (the new secret)`
    : `${fresh} (the new secret) and ${old} (the old one)`;
}

/** What a replace of a Webhook whose secret changes is, for the rotation: a step one. */
export function stepOneImpact(
  webhook: string,
  after: WebhookView,
  mark: RotationMark | undefined,
  deleteFirst: boolean,
): RotationReview {
  const holds = mark?.record?.step === 1 ? mark.record.receiverHolds : undefined;
  const which = holds
    ? `${holdsList(holds)}, as SecretRotation ${codeSpan(mark!.name)} records them`
    : `the secret webhook ${codeSpan(webhook)} signs with now and its new one${mark ? "" : " (no SecretRotation names them: see docs/receiver.md)"}`;
  const impact = [
    `Rotation step one: before the merge, the receiver at ${endpointOf(after)} must hold ${which}. Drop the old secret in a later update (step two), once the old webhook's retries have stopped.`,
  ];
  if (mark?.record?.step === 2) {
    impact.push(
      `Warning: SecretRotation ${codeSpan(mark.name)} is at step two in the same update: the receiver drops the old secret while the old webhook still delivers and retries with it, so those deliveries fail their signature. Set it to step one for this update.`,
    );
  }
  if (deleteFirst) {
    impact.push(
      "The old webhook is deleted first (deleteBeforeReplace): the receiver needs the old secret only for its retries, but the records of the gap are not delivered.",
    );
  }
  return {
    rotation: mark?.name ?? null,
    webhook,
    step: 1,
    receiverHolds: holds ?? null,
    impact,
  };
}

/**
 * What a changed SecretRotation whose Webhook is not replaced in this change says: a step two, or a
 * step one whose webhook already has its new secret.
 */
export function markImpact(mark: RotationMark): RotationReview {
  const record = mark.record;
  if (record === undefined) {
    return {
      rotation: mark.name,
      webhook: null,
      step: null,
      receiverHolds: null,
      impact: [
        `SecretRotation ${codeSpan(mark.name)}: its record (step, webhook, fingerprints) is unreadable, so review cannot say which step it is at or what the receiver must hold.`,
      ],
    };
  }
  const webhook = codeSpan(record.webhook);
  const impact =
    record.step === 2
      ? `Rotation step two of Webhook ${webhook}: the receiver drops the old secret and keeps ${holdsList(record.receiverHolds)}, the secret the webhook signs with since step one; the webhook does not change. Before the merge, make sure step one's update is done and the old webhook's retries have stopped.`
      : `Rotation step one of Webhook ${webhook}: the receiver must hold ${holdsList(record.receiverHolds)} before the merge; this change does not replace the webhook (its secretKey is already the new one, or it is in another stack).`;
  return {
    rotation: mark.name,
    webhook: record.webhook,
    step: record.step,
    receiverHolds: record.receiverHolds,
    impact: [impact],
  };
}

/** What review says of a Webhook replaced for another reason than its secret. */
export const NOT_A_ROTATION =
  "Not a rotation: the secret stays the same, so the receiver needs no other secret.";
