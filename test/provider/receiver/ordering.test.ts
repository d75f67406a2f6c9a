import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type CounterStore,
  createLambdaHandler,
  isStale,
  MemoryCounterStore,
  type ReceiveResult,
  receiveDelivery,
} from "../../../provider/receiver/index";
import { fingerprintItem } from "../../helpers/delivery-items";
import { SECRET } from "../../helpers/fixtures";

/**
 * Regression (issue 18, item 2): the freshness check, the call of handleItem and the record of the counter
 * were three separate steps, so while the function handled an item at update_counter 7, a delivery of the
 * same item at 6 passed the check (7 was not recorded yet) and ran too. Items of one session now go
 * through one at a time, and the counter is read again just before the call.
 */
const item = fingerprintItem;
const signed = (serviceId: string, counter: number) => {
  const body = JSON.stringify({
    channel: "default",
    item_count: 1,
    items: [item(serviceId, counter)],
    webhook_uuid: "w-1",
  });
  return { body, signature: `SHA256:${createHmac("sha256", SECRET).update(body).digest("base64")}` };
};

/** A promise and its resolver, so a test decides when a handler returns. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A receiver whose handleItem for `blocked` waits until released; it records every call. */
function receiver(store: CounterStore, blocked: string) {
  const handled: string[] = [];
  const entered = gate();
  const release = gate();
  const options = {
    secrets: [SECRET],
    store,
    handleItem: async (i: { service_id: string; update_counter: number }) => {
      const name = `${i.service_id}@${i.update_counter}`;
      handled.push(name);
      if (name === blocked) {
        entered.open();
        await release.opened;
      }
    },
  };
  const receive = (serviceId: string, counter: number): Promise<ReceiveResult> => {
    const { body, signature } = signed(serviceId, counter);
    return receiveDelivery(body, signature, options);
  };
  return { handled, entered: entered.opened, release: release.open, receive, options };
}

describe("no stale delivery overtakes a newer one in flight", () => {
  it("skips counter 6 that arrives while counter 7 of the same session is being handled", async () => {
    const r = receiver(new MemoryCounterStore(), "a@7");
    const newer = r.receive("a", 7);
    await r.entered;
    const older = r.receive("a", 6);
    r.release();
    expect(await newer).toMatchObject({ status: 200, processed: 1, skipped: 0 });
    expect(await older).toMatchObject({ status: 200, processed: 0, skipped: 1 });
    expect(r.handled).toEqual(["a@7"]);
  });

  it("does the same behind a Lambda handler with a plain Map as the store", async () => {
    const r = receiver(new Map(), "a@7");
    const handler = createLambdaHandler(r.options);
    const event = (counter: number) => {
      const { body, signature } = signed("a", counter);
      return { body, headers: { "service-signature": signature } };
    };
    const newer = handler(event(7));
    await r.entered;
    const older = handler(event(6));
    r.release();
    expect((await newer).statusCode).toBe(200);
    expect((await older).statusCode).toBe(200);
    expect(r.handled).toEqual(["a@7"]);
  });

  it("lets other sessions through while one is in flight", async () => {
    const r = receiver(new MemoryCounterStore(), "a@7");
    const blocked = r.receive("a", 7);
    await r.entered;
    expect(await r.receive("b", 1)).toMatchObject({ status: 200, processed: 1 });
    r.release();
    await blocked;
    expect(r.handled).toEqual(["a@7", "b@1"]);
  });

  it("runs the check, the call and the record inside the store's exclusive section when it has one", async () => {
    const counters = new Map<string, number>();
    const events: string[] = [];
    const store: CounterStore = {
      get: (id) => {
        events.push(`get ${id}`);
        return counters.get(id);
      },
      set: (id, counter) => {
        events.push(`set ${id}=${counter}`);
        counters.set(id, counter);
      },
      exclusive: async (id, task) => {
        events.push(`lock ${id}`);
        try {
          return await task();
        } finally {
          events.push(`unlock ${id}`);
        }
      },
    };
    const r = receiver(store, "none");
    expect(await r.receive("a", 3)).toMatchObject({ status: 200, processed: 1 });
    expect(await r.receive("a", 2)).toMatchObject({ status: 200, skipped: 1 });
    expect(events).toEqual(["lock a", "get a", "set a=3", "unlock a", "lock a", "get a", "unlock a"]);
    expect(r.handled).toEqual(["a@3"]);
  });
});

describe("isStale", () => {
  it("discards only an update older than the one recorded; the first one is never stale", () => {
    expect(isStale(1, undefined)).toBe(false);
    expect(isStale(3, 4)).toBe(true);
    expect(isStale(4, 4)).toBe(false);
    expect(isStale(5, 4)).toBe(false);
  });
});
