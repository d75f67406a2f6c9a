/** The secrets a receiver holds at each step of a rotation, and the failures that name the rotation. */
import { describe, expect, it } from "vitest";
import { receiverSecretsAt } from "../../../provider/receiver/rotation-step";

const NEW = "whsec-new-secret-for-rotation-1a2b3c";
const OLD = "whsec-old-secret-for-rotation-4d5e6f";
const WHERE = "SecretRotation orders-rotation";

describe("receiverSecretsAt", () => {
  it("holds the new and the old secret at step 1, the new first, and the new alone at step 2", () => {
    expect(receiverSecretsAt(1, NEW, OLD, WHERE)).toEqual([NEW, OLD]);
    expect(receiverSecretsAt(2, NEW, OLD, WHERE)).toEqual([NEW]);
    expect(receiverSecretsAt(2, NEW, undefined, WHERE)).toEqual([NEW]);
  });

  it("refuses a step 1 without the old secret, or with the old secret as the new one, naming the rotation and never a secret", () => {
    expect(() => receiverSecretsAt(1, NEW, undefined, WHERE)).toThrow(
      "SecretRotation orders-rotation: step 1 needs oldSecret, the secret the webhook signs with now, so that the receiver keeps accepting its deliveries until the replacement is done.",
    );
    const same = () => receiverSecretsAt(1, NEW, NEW, WHERE);
    expect(same).toThrow(
      /^SecretRotation orders-rotation: step 1 has the same newSecret and oldSecret \(fingerprint sha256:[0-9a-f]{8}\)/,
    );
    expect(same).not.toThrow(NEW);
  });

  it("refuses a step other than 1 or 2", () => {
    expect(() => receiverSecretsAt(3 as 1, NEW, OLD, WHERE)).toThrow(
      "SecretRotation orders-rotation: step is 3; give 1 (the receiver accepts the new and the old secret, and the webhook is replaced) or 2 (a later update drops the old secret).",
    );
  });
});
