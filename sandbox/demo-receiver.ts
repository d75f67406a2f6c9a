import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createNodeHandler,
  type Delivery,
  MemoryCounterStore,
  type ReceiverFailure,
  type Snapshot,
} from "../provider/receiver/index";

/** What `service-sandbox demo` plays the part of: the user's own receiver, on one local origin. */
export interface DemoReceiver {
  /** `http://127.0.0.1:<port>`: the sandbox's seed maps the webhook host here. */
  readonly origin: string;
  /** The path deliveries are posted to. */
  readonly eventsPath: string;
  /** Serves `content` at `path`, as a publisher serves a domain's verification file. */
  publish(path: string, content: string): void;
  /** Stops listening. */
  close(): Promise<void>;
}

/** What the receiver does with what it accepts and refuses. */
export interface DemoReceiverHooks {
  /** Each item that passed the signature check and is not stale. */
  readonly onItem: (item: Snapshot<"2.0">, delivery: Delivery<"2.0">) => void;
  /** Each delivery refused (a bad signature, say). */
  readonly onFailure: (failure: ReceiverFailure) => void;
}

const EVENTS_PATH = "/service/events";

/**
 * A receiver as a user would write it: one Node server that serves the domain's verification file (a
 * GET under /service_url_registration/) and hands deliveries to `createNodeHandler`, which checks the
 * signature and skips items whose update_counter is lower than one already processed.
 */
export async function startDemoReceiver(secret: string, hooks: DemoReceiverHooks): Promise<DemoReceiver> {
  const files = new Map<string, string>();
  const deliveries = createNodeHandler({
    secrets: [secret],
    // Never lowers a stored counter, as the store of a receiver must.
    store: new MemoryCounterStore(),
    handleItem: hooks.onItem,
    onFailure: hooks.onFailure,
  });
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://receiver").pathname;
    if (req.method === "GET" && files.has(path)) {
      res.writeHead(200, { "content-type": "text/plain", "cache-control": "no-store" }).end(files.get(path));
    } else if (path === EVENTS_PATH) {
      void deliveries(req, res);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    eventsPath: EVENTS_PATH,
    publish: (path, content) => files.set(path, content),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
