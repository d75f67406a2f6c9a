/**
 * Deliveries may arrive out of order. A receiver keeps the highest `update_counter` it has processed per
 * session and discards any event with a lower one (spec section 6).
 */
export function isStale(incoming: number, stored: number | undefined): boolean {
  return stored !== undefined && incoming < stored;
}

/** Where the counters live: a Map, or a table such as DynamoDB behind the same two calls. */
export interface CounterStore {
  get(serviceId: string): Promise<number | undefined> | number | undefined;
  set(serviceId: string, counter: number): Promise<unknown> | unknown;
}

export interface DeliveredItem {
  readonly service_id: string;
  readonly update_counter: number;
}

/** Keeps the items of a delivery that are not stale, recording their counters as it goes. */
export class UpdateCounterGuard {
  constructor(private readonly store: CounterStore = new Map<string, number>()) {}

  async accept<T extends DeliveredItem>(items: readonly T[]): Promise<T[]> {
    const fresh: T[] = [];
    for (const item of items) {
      const stored = await this.store.get(item.service_id);
      if (isStale(item.update_counter, stored)) continue;
      await this.store.set(item.service_id, item.update_counter);
      fresh.push(item);
    }
    return fresh;
  }
}
