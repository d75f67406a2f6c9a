/**
 * Runs tasks that share a key one after another, and tasks with different keys side by side. Two Webhook
 * resources with the same endpoint, channel and filters are indistinguishable to the service, so their
 * creates must not overlap: a lost answer to one could otherwise be reconciled onto the other's webhook.
 * A receiver handles the items of one session one at a time, so a stale one cannot overtake a newer one.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // Forget the key once nothing else is queued behind this task.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
