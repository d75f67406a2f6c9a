import type { Snapshot } from "../../contract/sessions/item-types";
import type { ApiVersion } from "../../contract/versions";
import { redact } from "../context/process";
import { ConfigurationError } from "../errors/base";
import { InvalidSignatureError, MalformedDeliveryError } from "../errors/receiver";
import { checkApiVersion, type Delivery, parseDelivery } from "./delivery";
import { type CounterStore, UpdateCounterGuard } from "./ordering";
import { checkSecrets } from "./secrets";

/** A delivery the receiver refused or failed to process, as `onFailure` is told of it. */
export interface ReceiverFailure {
  /** The status answered: 401 bad signature, 400 malformed body, 413 body too large, 500 processing or store failed. */
  readonly status: 400 | 401 | 413 | 500;
  /** One line naming the delivery, the cause and what happens next. Secrets are redacted. */
  readonly message: string;
  /** What was thrown: an InvalidSignatureError, a MalformedDeliveryError, or the error of `handleItem` or the store. */
  readonly error: unknown;
}

/** What a receiver needs: who may post, where counters live, and what to do with each new item. */
export interface ReceiverOptions<V extends ApiVersion = "2.0"> {
  /** The secret key of every webhook that posts to this URL: one, or the old and the new during a rotation. */
  readonly secrets: readonly string[];
  /**
   * Where the highest processed `update_counter` of each session is kept: a MemoryCounterStore in a
   * long-lived process, a table (with a conditional write) in a Lambda function.
   */
  readonly store: CounterStore;
  /**
   * Called once per item that is not stale, in delivery order, and awaited. Throw (or reject) to have the
   * receiver answer 500 so that the service delivers again. Redeliveries reach it again, so make it
   * idempotent for a given `service_id` and `update_counter`.
   */
  readonly handleItem: (item: Snapshot<V>, delivery: Delivery<V>) => unknown;
  /** The API version the webhooks posting here were created with; default `"2.0"`. */
  readonly apiVersion?: V;
  /** Told of every refused or failed delivery; by default the message goes to `console.error`. */
  readonly onFailure?: (failure: ReceiverFailure) => void;
}

/** What the receiver answers, and what it did. */
export interface ReceiveResult {
  /** 200 when every item was processed or skipped as stale; the service retries anything else. */
  readonly status: 200 | 400 | 401 | 500;
  /** A short plain-text body; details go to `onFailure`, not to the caller. */
  readonly body: string;
  /** Items passed to `handleItem` that succeeded. */
  readonly processed: number;
  /** Items skipped because a newer `update_counter` was already processed. */
  readonly skipped: number;
}

/**
 * Checks the options a handler is created with, so that a missing, empty or unset secret fails at
 * start-up, not on every delivery.
 */
export function checkReceiverOptions<V extends ApiVersion>(
  options: ReceiverOptions<V>,
  caller: string,
): void {
  checkSecrets(options?.secrets, caller);
  if (typeof options.handleItem !== "function" || typeof options.store?.get !== "function") {
    throw new ConfigurationError(
      `${caller} needs options.handleItem (a function) and options.store (a CounterStore, such as a MemoryCounterStore).`,
    );
  }
  checkApiVersion(options.apiVersion, caller);
}

/** Where failures go: `options.onFailure`, or the console (a Lambda function's log). */
export function failureReporter<V extends ApiVersion>(
  options: ReceiverOptions<V>,
): (failure: ReceiverFailure) => void {
  return options.onFailure ?? ((failure) => console.error(failure.message));
}

/**
 * Verifies, parses and processes one delivery, and says what to answer. The request handlers for Node's
 * `http` and for Lambda function URLs wrap it; call it directly from any other framework with the raw body
 * and the `Service-Signature` header. Failures become the status; it throws only what `onFailure` throws.
 *
 * Each item that is not stale is passed to `handleItem`, then its counter is recorded, in that order: the
 * store only ever holds counters of items processed, so a crash between the two leaves the item to be
 * processed again on redelivery, never lost. Processing stops at the first failure. Items of one session
 * are handled one at a time (see `UpdateCounterGuard.process`), so an older one never overtakes a newer
 * one in flight.
 */
export async function receiveDelivery<V extends ApiVersion = "2.0">(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  options: ReceiverOptions<V>,
): Promise<ReceiveResult> {
  const report = failureReporter(options);
  let delivery: Delivery<V>;
  try {
    delivery = parseDelivery(rawBody, signatureHeader, options.secrets, { apiVersion: options.apiVersion });
  } catch (error) {
    const status =
      error instanceof InvalidSignatureError ? 401 : error instanceof MalformedDeliveryError ? 400 : 500;
    report({ status, message: (error as Error).message, error });
    const body =
      status === 401 ? "invalid signature" : status === 400 ? "malformed delivery" : "receiver failed";
    return { status, body, processed: 0, skipped: 0 };
  }
  const guard = new UpdateCounterGuard(options.store);
  let processed = 0;
  let skipped = 0;
  for (const item of delivery.items) {
    try {
      if (await guard.process(item, () => options.handleItem(item, delivery))) processed += 1;
      else skipped += 1;
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      report({
        status: 500,
        message: redact(
          `Item ${item.service_id} (update_counter ${item.update_counter}) of a delivery from webhook ${delivery.webhookUuid} failed: ${cause}. Answered 500, so the service will deliver it again; ${processed} earlier item(s) of the delivery were processed.`,
        ),
        error,
      });
      return { status: 500, body: "processing failed; deliver again later", processed, skipped };
    }
  }
  return { status: 200, body: "ok", processed, skipped };
}
