/**
 * Deliveries as a receiver reads them: the smallest item, a delivery's body of items, its signature (by
 * openssl or node:crypto), and a receiver's options that record what it was given and told.
 */
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import type { ReceiverFailure } from "../../provider/receiver/index";
import { SECRET } from "./fixtures";

/** A register fingerprint as a delivery carries it: the smallest item every API version reads. */
export const fingerprintItem = (service_id: string, update_counter: number) => ({
  service_id,
  activity: { name: "fingerprint", mode: "register", form_factor: "microscopic" },
  owner: { organization: { name: "acme" }, user: { username: "acme-alice" } },
  status: { flag: null, result: { id: "registered", display: "Registered", final: true }, retake: null },
  text_fields: { customer_item_id: `order-${service_id}` },
  update_counter,
});

/** The Service-Signature of `body` as the openssl command line computes it, independently of node:crypto. */
export function opensslSignature(body: string | Buffer, secret: string): string {
  const digest = execFileSync("openssl", ["dgst", "-sha256", "-hmac", secret, "-binary"], { input: body });
  return `SHA256:${digest.toString("base64")}`;
}

/** The Service-Signature of `body` as node:crypto computes it (openssl per case would be slow). */
export const sign = (body: string | Uint8Array, secret = SECRET) =>
  `SHA256:${createHmac("sha256", secret).update(body).digest("base64")}`;

/** The body of a delivery of `items` from webhook w-1. */
export const delivery = (...items: ReturnType<typeof fingerprintItem>[]) =>
  JSON.stringify({ channel: "default", item_count: items.length, items, webhook_uuid: "w-1" });

/** A receiver's options, recording what it was given and told; its function throws for `fail`'s items. */
export function recorder(fail: (serviceId: string) => boolean = () => false) {
  const handled: string[] = [];
  const failures: ReceiverFailure[] = [];
  const store = new Map<string, number>();
  const options = {
    secrets: [SECRET],
    store,
    onFailure: (f: ReceiverFailure) => failures.push(f),
    handleItem: async (i: { service_id: string; update_counter: number }) => {
      handled.push(`${i.service_id}@${i.update_counter}`);
      if (fail(i.service_id)) throw new Error(`cannot store ${i.service_id}`);
    },
  };
  return { handled, failures, store, options };
}
