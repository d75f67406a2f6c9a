/**
 * Deliveries may arrive out of order. A receiver keeps the highest `update_counter` it has processed per
 * session and discards any event with a lower one (spec section 6). An equal counter is the same snapshot
 * again (a retry), and is not stale: a receiver that failed part-way through it gets to finish it.
 */
export function isStale(incoming: number, stored: number | undefined): boolean {
  return stored !== undefined && incoming < stored;
}

/**
 * Where the counters live: a Map, or a table such as DynamoDB behind the same two calls. Deliveries for one
 * session can be handled concurrently (two Lambda invocations, say) and finish in any order, so `set`
 * should never lower a stored counter: make it a conditional write where the store allows one.
 */
export interface CounterStore {
  /** The counter stored for a session, or undefined when none is. */
  get(serviceId: string): Promise<number | undefined> | number | undefined;
  /** Stores a session's counter. */
  set(serviceId: string, counter: number): Promise<unknown> | unknown;
}

/**
 * A CounterStore in this process's memory that never lowers a counter, for a receiver that runs as one
 * long-lived process. Counters are lost on restart: a Lambda function needs a table instead.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, number>();

  /** The counter stored for a session. */
  get(serviceId: string): number | undefined {
    return this.counters.get(serviceId);
  }

  /** Stores a session's counter, unless a higher one is already stored. */
  set(serviceId: string, counter: number): void {
    if (!isStale(counter, this.counters.get(serviceId))) this.counters.set(serviceId, counter);
  }
}

/** The two members of a delivered item that ordering reads. */
export interface DeliveredItem {
  /** The session id: counters are kept per session. */
  readonly service_id: string;
  /** Grows with every change of the session; an item below the stored one is stale. */
  readonly update_counter: number;
}

/** Applies the ordering rule against a CounterStore (in this process's memory by default). */
export class UpdateCounterGuard {
  /** @param store where counters are read and written; a MemoryCounterStore by default. */
  constructor(private readonly store: CounterStore = new MemoryCounterStore()) {}

  /** Whether `item` is not older than the counter stored for its session. */
  async isFresh(item: DeliveredItem): Promise<boolean> {
    return !isStale(item.update_counter, await this.store.get(item.service_id));
  }

  /** Stores `item`'s counter: call it once the item has been processed, so the store never runs ahead. */
  async record(item: DeliveredItem): Promise<void> {
    await this.store.set(item.service_id, item.update_counter);
  }

  /**
   * Keeps the items of a delivery that are not stale, recording their counters as it goes, before the
   * caller processes them. The request handlers record only after processing instead; prefer them, or
   * `isFresh` and `record`.
   */
  async accept<T extends DeliveredItem>(items: readonly T[]): Promise<T[]> {
    const fresh: T[] = [];
    for (const item of items) {
      if (!(await this.isFresh(item))) continue;
      await this.record(item);
      fresh.push(item);
    }
    return fresh;
  }
}
