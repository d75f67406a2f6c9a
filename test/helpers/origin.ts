import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface OriginAnswer {
  readonly status: number;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/**
 * A loopback web server standing in for https://<webhook host>: it serves whatever a test puts in
 * `files` (or a programmed answer), and records every request, deliveries included.
 */
export interface TestOrigin {
  readonly url: string;
  readonly files: Map<string, OriginAnswer>;
  readonly received: ReceivedRequest[];
  /** Answers for POSTs, used in order; 200 once they run out. */
  readonly postAnswers: number[];
  close(): Promise<void>;
}

export async function startOrigin(): Promise<TestOrigin> {
  const files = new Map<string, OriginAnswer>();
  const received: ReceivedRequest[] = [];
  const postAnswers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      if (req.method === "POST") {
        res.writeHead(postAnswers.shift() ?? 200).end("ok");
        return;
      }
      const answer = files.get(req.url ?? "") ?? { status: 404, body: "not found" };
      res.writeHead(answer.status, answer.headers ?? { "content-type": "text/plain" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    received,
    postAnswers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
