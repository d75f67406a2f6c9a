import { createHmac } from "node:crypto";
import { resolveHost } from "../contract/domains/hostname-overrides";
import { appendBounded } from "./bounded-log";
import type { SandboxClock } from "./clock";
import { lookup } from "./item-path";
import type { Settings } from "./public-types";
import { renderDeliveryItem } from "./render";
import type { SessionRecord, WebhookRecord } from "./store";

/**
 * One attempt to deliver one snapshot to one webhook, as `GET /_sandbox/deliveries` and `deliveries()`
 * list it; the members the spec names carry its wire names.
 */
export interface DeliveryAttempt {
  /** The webhook it was sent to. */
  readonly webhook_uuid: string;
  /** The session whose snapshot it carried. */
  readonly service_id: string;
  /** The snapshot's `update_counter`. */
  readonly update_counter: number;
  /** 1 for the first attempt, then 2, 3... for the retries of the same snapshot. */
  readonly attempt: number;
  /** When the attempt ended, in milliseconds since the epoch on the sandbox's clock. */
  readonly at: number;
  /** The receiver's status, or undefined when it did not answer. */
  readonly status: number | undefined;
  /** Why no answer came (connection refused, timeout...), or undefined when one did. */
  readonly error: string | undefined;
  /** Whether the receiver answered 200; any other outcome is retried, up to `deliveryMaxSeconds`. */
  readonly delivered: boolean;
  /** The raw body that was signed and sent. */
  readonly body: string;
  /** The Service-Signature header it was sent with, to check with verifySignature or openssl. */
  readonly signature: string;
}

/** One snapshot on its way to one webhook; every attempt sends the same signed body. */
interface Delivery {
  readonly hook: WebhookRecord;
  readonly serviceId: string;
  readonly updateCounter: number;
  readonly body: string;
  readonly signature: string;
  readonly firstAt: number;
}

/** The `Service-Signature` header of a delivery body: `SHA256:` and the base64 HMAC-SHA256 under the secret key. */
export function signatureFor(body: string, secretKey: string): string {
  return `SHA256:${createHmac("sha256", secretKey).update(body).digest("base64")}`;
}

/** Does a webhook's filter list select this session? */
export function matches(hook: WebhookRecord, session: SessionRecord): boolean {
  return hook.filters.every((f) => f.values.includes(String(lookup(session.item, f.key) ?? "")));
}

/**
 * Pushes session snapshots to webhooks: signed, retried at doubling intervals after any answer other
 * than 200 until `deliveryMaxSeconds` after the first attempt, with every attempt recorded.
 */
export class Deliverer {
  readonly attempts: DeliveryAttempt[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly cancels = new Set<() => void>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly settings: Settings,
    private readonly hosts: Readonly<Record<string, string>>,
  ) {}

  deliver(hook: WebhookRecord, session: SessionRecord): void {
    const body = JSON.stringify({
      channel: hook.channel,
      item_count: 1,
      items: [renderDeliveryItem(session, hook.version, hook.language)],
      webhook_uuid: hook.uuid,
    });
    this.attempt(
      {
        hook,
        serviceId: session.serviceId,
        updateCounter: session.updateCounter,
        body,
        signature: signatureFor(body, hook.secretKey),
        firstAt: this.clock.now(),
      },
      1,
    );
  }

  /** Resolves once no attempt is running (retries that are only scheduled do not count). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  stop(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
  }

  private attempt(delivery: Delivery, n: number): void {
    // A webhook deactivated since this attempt was scheduled gets nothing more (spec 3.2).
    if (!delivery.hook.active) return;
    const run = this.send(delivery).then(({ status, error }) => {
      const delivered = status === 200;
      appendBounded(this.attempts, {
        webhook_uuid: delivery.hook.uuid,
        service_id: delivery.serviceId,
        update_counter: delivery.updateCounter,
        attempt: n,
        at: this.clock.now(),
        status,
        error,
        delivered,
        body: delivery.body,
        signature: delivery.signature,
      });
      if (delivered) return;
      const delay = this.settings.deliveryRetryBaseSeconds * 1000 * 2 ** (n - 1);
      if (this.clock.now() + delay - delivery.firstAt > this.settings.deliveryMaxSeconds * 1000) return;
      const cancel = this.clock.schedule(() => {
        this.cancels.delete(cancel);
        this.attempt(delivery, n + 1);
      }, delay);
      this.cancels.add(cancel);
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async send(delivery: Delivery): Promise<{ status?: number; error?: string }> {
    try {
      const response = await fetch(resolveHost(delivery.hook.endpoint, this.hosts), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "service-signature": delivery.signature,
        },
        body: delivery.body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.settings.outboundTimeoutMs),
      });
      await response.body?.cancel();
      return { status: response.status };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
}
