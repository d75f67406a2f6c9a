import { KeyedLock } from "../context/keyed-lock";
import { contextKey, processContext } from "../context/process";

/**
 * Deliveries may arrive out of order. A receiver keeps the highest `update_counter` it has processed per
 * session and discards any event with a lower one (spec section 6). An equal counter is the same snapshot
 * again (a retry), and is not stale: a receiver that failed part-way through it gets to finish it.
 */
export function isStale(incoming: number, stored: number | undefined): boolean {
  return stored !== undefined && incoming < stored;
}

/**
 * Where the counters live: a Map, or a table such as DynamoDB behind the same calls.
 *
 * Within one process the receiver handles the items of one session one at a time, per store, and reads
 * the counter again just before calling `handleItem`, so a stale item never reaches it while a newer one
 * is in flight. Several processes (Lambda invocations, replicas) sharing a table only get that guarantee
 * from the store: `set` must be a conditional write that never lowers a stored counter, so a late item is
 * skipped once a newer one is recorded; and `exclusive`, when the store implements it, is what keeps a
 * stale item from running while a newer one is in flight in another process.
 */
export interface CounterStore {
  /** The counter stored for a session, or undefined when none is. */
  get(serviceId: string): Promise<number | undefined> | number | undefined;
  /**
   * Stores a session's counter, unless a higher one is stored: a conditional write, such as DynamoDB's
   * `attribute_not_exists(counter) OR counter <= :new`. A plain Map is fine within one process only.
   */
  set(serviceId: string, counter: number): Promise<unknown> | unknown;
  /**
   * Optional: runs `task` while holding a lock on the session that every process sharing the store
   * respects (a lease row with a conditional write, a database advisory lock), and settles as `task` does.
   * The receiver runs the check of the counter, `handleItem` and `set` inside it.
   */
  exclusive?<T>(serviceId: string, task: () => Promise<T>): Promise<T>;
}

/**
 * One lock per store, each keyed by session: handlers and `receiveDelivery` calls that share a store share
 * its lock, whichever copy of the package created them.
 */
const SESSION_LOCKS = contextKey(
  "receiver session locks per counter store",
  () => new WeakMap<object, KeyedLock>(),
);

function sessionLock(store: CounterStore): KeyedLock {
  const locks = processContext().get(SESSION_LOCKS);
  let lock = locks.get(store);
  if (lock === undefined) {
    lock = new KeyedLock();
    locks.set(store, lock);
  }
  return lock;
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
   * Calls `handle` for `item` unless it is stale, then records its counter; answers whether it called it.
   * Items of one session go through one at a time (within this process, and across processes when the
   * store implements `exclusive`), and the counter is read just before the call, so an older item that
   * waited behind a newer one is skipped rather than run after it. A `handle` that throws records nothing.
   */
  async process(item: DeliveredItem, handle: () => unknown): Promise<boolean> {
    const step = async () => {
      if (!(await this.isFresh(item))) return false;
      await handle();
      await this.record(item);
      return true;
    };
    const exclusive = this.store.exclusive?.bind(this.store);
    return sessionLock(this.store).run(
      item.service_id,
      exclusive ? () => exclusive(item.service_id, step) : step,
    );
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
