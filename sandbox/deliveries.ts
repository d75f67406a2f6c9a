import { createHmac } from "node:crypto";
import type { SandboxClock } from "./clock";
import { outboundUrl } from "./outbound";
import { renderDeliveryItem } from "./render";
import type { Settings } from "./seed";
import type { SessionRecord, WebhookRecord } from "./store";

export interface DeliveryAttempt {
  readonly webhookUuid: string;
  readonly serviceId: string;
  readonly updateCounter: number;
  readonly attempt: number;
  readonly at: number;
  /** The receiver's status, or undefined when it did not answer. */
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly delivered: boolean;
  /** The raw body that was signed and sent. */
  readonly body: string;
}

export function signatureFor(body: string, secretKey: string): string {
  return `SHA256:${createHmac("sha256", secretKey).update(body).digest("base64")}`;
}

/** Does a webhook's filter list select this session? */
export function matches(hook: WebhookRecord, session: SessionRecord): boolean {
  return hook.filters.every((f) => f.values.includes(String(lookup(session.item, f.key) ?? "")));
}

export function lookup(item: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = item;
  for (const part of dotted.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
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
      items: [renderDeliveryItem(session, hook.version)],
      webhook_uuid: hook.uuid,
    });
    this.attempt(hook, session, body, 1, this.clock.now());
  }

  /** Resolves once no attempt is running (retries that are only scheduled do not count). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  pendingRetries(): number {
    return this.cancels.size;
  }

  stop(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
  }

  private attempt(
    hook: WebhookRecord,
    session: SessionRecord,
    body: string,
    n: number,
    firstAt: number,
  ): void {
    const run = this.send(hook, body).then(({ status, error }) => {
      const delivered = status === 200;
      this.attempts.push({
        webhookUuid: hook.uuid,
        serviceId: session.serviceId,
        updateCounter: session.updateCounter,
        attempt: n,
        at: this.clock.now(),
        status,
        error,
        delivered,
        body,
      });
      if (delivered || !hook.active) return;
      const delay = this.settings.deliveryRetryBaseSeconds * 1000 * 2 ** (n - 1);
      if (this.clock.now() + delay - firstAt > this.settings.deliveryMaxSeconds * 1000) return;
      const cancel = this.clock.schedule(() => {
        this.cancels.delete(cancel);
        this.attempt(hook, session, body, n + 1, firstAt);
      }, delay);
      this.cancels.add(cancel);
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async send(hook: WebhookRecord, body: string): Promise<{ status?: number; error?: string }> {
    try {
      const response = await fetch(outboundUrl(hook.endpoint, this.hosts), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "service-signature": signatureFor(body, hook.secretKey),
        },
        body,
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
