import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";

/** Serves a folder over loopback HTTP, as a webhook host would serve its verification files. */
export async function startDirectoryOrigin(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (path.includes("..")) return void res.writeHead(400).end();
    // Read before the status is written: a missing file is a 404, not a 200 cut short.
    const body = await readFile(join(dir, path)).catch(() => undefined);
    if (body === undefined) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": "text/plain" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
