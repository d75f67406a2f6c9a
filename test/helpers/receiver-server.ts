import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FunctionUrlEvent, FunctionUrlResult } from "../../provider/receiver/index";
import { type Sandbox, type SandboxClock, startSandbox } from "../../sandbox/index";
import { HOOKS_TOKEN, testSeed } from "./fixtures";
import { plainApi } from "./http";
import type { OriginAnswer, ReceivedRequest, TestOrigin } from "./origin";
import { hookBody, registerDomain } from "./world";

/**
 * A loopback server standing in for https://<webhook host> whose POSTs go to a receiver under test,
 * untouched: the receiver reads the real request stream. GETs are answered from `files` (the domain
 * verification file) and recorded in `received`; POSTs are not recorded, since recording would read the
 * body before the receiver does, and `postAnswers` is unused.
 */
interface ReceiverHost extends TestOrigin {
  /** Where POSTs go; swap it between tests. */
  receiver: RequestListener;
}

async function startReceiverHost(receiver: RequestListener): Promise<ReceiverHost> {
  const files = new Map<string, OriginAnswer>();
  const received: ReceivedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "POST") {
      host.receiver(req, res);
      return;
    }
    received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: "" });
    req.resume();
    const answer = files.get(req.url ?? "") ?? { status: 404, body: "not found" };
    res.writeHead(answer.status, answer.headers ?? { "content-type": "text/plain" }).end(answer.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const host: ReceiverHost = {
    receiver,
    url: `http://127.0.0.1:${port}`,
    files,
    received,
    postAnswers: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return host;
}

/** A sandbox whose registered webhook host is a ReceiverHost. */
export interface ReceiverWorld {
  readonly sandbox: Sandbox;
  readonly host: ReceiverHost;
  readonly api: ReturnType<typeof plainApi>;
  /** Creates a webhook on the host through the API of `version`; answers its uuid. */
  createWebhook(version: "1.4" | "2.0", overrides?: Record<string, unknown>): Promise<string>;
  /**
   * Creates or changes a session through POST /_sandbox/sessions and waits until its deliveries have been
   * answered; answers the session id and its update_counter.
   */
  upsert(body: Record<string, unknown>): Promise<{ service_id: string; update_counter: number }>;
  close(): Promise<void>;
}

export async function startReceiverWorld(
  receiver: RequestListener,
  options: { clock?: SandboxClock } = {},
): Promise<ReceiverWorld> {
  const host = await startReceiverHost(receiver);
  const sandbox = await startSandbox({ seed: testSeed(host.url), clock: options.clock });
  const api = plainApi(sandbox.url, { token: HOOKS_TOKEN });
  await registerDomain({ api, origin: host });
  return {
    sandbox,
    host,
    api,
    async createWebhook(version, overrides = {}) {
      const path = version === "1.4" ? "/v1/webhooks" : "/v2/webhooks";
      const created = await api("POST", path, { body: hookBody(overrides) });
      if (created.status !== 200) throw new Error(`${path} answered ${created.status}`);
      return created.json.webhook_uuid as string;
    },
    async upsert(body) {
      const answer = await api("POST", "/_sandbox/sessions", { body: { organization: "acme", ...body } });
      if (answer.status !== 200) throw new Error(`/_sandbox/sessions answered ${answer.status}`);
      await sandbox.deliveriesIdle();
      return answer.json;
    },
    close: async () => {
      await sandbox.close();
      await host.close();
    },
  };
}

/**
 * A listener that plays the Lambda runtime in front of a function URL handler: it reads the request,
 * base64-encodes the body as the runtime does for binary content, and writes back the handler's result.
 */
export function asFunctionUrl(
  handler: (event: FunctionUrlEvent) => Promise<FunctionUrlResult>,
): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v]),
      );
      const result = await handler({
        body: Buffer.concat(chunks).toString("base64"),
        isBase64Encoded: true,
        headers,
        requestContext: { http: { method: req.method ?? "" } },
      });
      res.writeHead(result.statusCode, result.headers).end(result.body);
    });
  };
}
