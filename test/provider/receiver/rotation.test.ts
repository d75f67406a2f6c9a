/**
 * SecretRotation under Pulumi's mocks, loaded from the built package as a program loads it: what it gives
 * the Webhook and the receiver at each step, that every secret stays a Pulumi secret, that the record
 * review reads (its inputs) holds fingerprints and no secret, and the failures of a wrong step.
 */
import { describe, expect, it } from "vitest";
import { secretFingerprint } from "../../../provider/receiver/index";
import { mockedPulumi, settled } from "../../helpers/mocks";

const NEW = "whsec-new-secret-for-rotation-1a2b3c";
const OLD = "whsec-old-secret-for-rotation-4d5e6f";

/** A rotation's outputs once resolved, with whether each is a Pulumi secret. */
async function resolved(step: 1 | 2, oldSecret: string | undefined = OLD) {
  const { pulumi, service, registered } = mockedPulumi();
  const rotation = new service.SecretRotation("orders-rotation", {
    step,
    webhook: "orders",
    newSecret: pulumi.secret(NEW),
    ...(oldSecret === undefined ? {} : { oldSecret: pulumi.secret(oldSecret) }),
  });
  const [secretKey, receiverSecrets, receiverHolds] = (await settled(pulumi, [
    rotation.secretKey,
    rotation.receiverSecrets,
    rotation.receiverHolds,
    rotation.urn,
  ])) as [string, string[], string[]];
  return {
    pulumi,
    rotation,
    registered,
    secretKey,
    receiverSecrets,
    receiverHolds,
    secret: {
      secretKey: await pulumi.isSecret(rotation.secretKey),
      receiverSecrets: await pulumi.isSecret(rotation.receiverSecrets),
      receiverHolds: await pulumi.isSecret(rotation.receiverHolds),
    },
  };
}

describe("SecretRotation", () => {
  it("at step 1 gives the webhook the new secret and the receiver the new and the old, each a secret", async () => {
    const run = await resolved(1);
    expect(run.secretKey).toBe(NEW);
    expect(run.receiverSecrets).toEqual([NEW, OLD]);
    expect(run.receiverHolds).toEqual([secretFingerprint(NEW), secretFingerprint(OLD)]);
    expect(run.secret).toEqual({ secretKey: true, receiverSecrets: true, receiverHolds: false });
  });

  it("at step 2 gives the receiver the new secret alone, and needs no old one", async () => {
    const run = await resolved(2, undefined);
    expect(run.secretKey).toBe(NEW);
    expect(run.receiverSecrets).toEqual([NEW]);
    expect(run.receiverHolds).toEqual([secretFingerprint(NEW)]);
  });

  it("records the step, the webhook and fingerprints where review reads them, and no secret", async () => {
    const { registered } = await resolved(1);
    const component = registered.find((r) => r.type === "service:index:SecretRotation")!;
    expect(component.name).toBe("orders-rotation");
    expect(component.inputs).toEqual({
      step: 1,
      webhook: "orders",
      receiverHolds: [secretFingerprint(NEW), secretFingerprint(OLD)],
    });
    expect(JSON.stringify(registered)).not.toContain(NEW);
    expect(JSON.stringify(registered)).not.toContain(OLD);
  });

  it("gives as the Webhook's dependsOn the receiver's resources, so the replace waits for them", async () => {
    const { pulumi, rotation } = await resolved(1);
    const receiver = new pulumi.ComponentResource("test:index:Receiver", "receiver");
    expect(rotation.dependsOn(receiver)).toEqual([receiver]);
    expect(rotation.dependsOn()).toEqual([]);
  });
});

describe("secretFingerprint", () => {
  it("names a secret by a short hash prefix that does not contain it", () => {
    expect(secretFingerprint(NEW)).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(secretFingerprint(NEW)).not.toBe(secretFingerprint(OLD));
    expect(secretFingerprint(NEW)).toBe(secretFingerprint(NEW));
  });
});
