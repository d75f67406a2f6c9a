import type { Hono } from "hono";
import type { SandboxContext, SandboxEnv } from "../context";
import { IMAGE_ROUTE } from "../images";

/** A 1×1 transparent PNG: every image the sandbox links to. */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** Serves the images item answers link to, while their URL is unexpired and unaltered. */
export function mountImages(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get(IMAGE_ROUTE, (c) => {
    const refusal = ctx.images.refusal(
      c.req.param("service_id")!,
      c.req.param("name")!,
      c.req.query("expires") ?? "",
      c.req.query("signature") ?? "",
    );
    if (refusal) {
      return c.json({ error: { code: refusal.code, message: refusal.message } }, refusal.status);
    }
    return c.body(new Uint8Array(PIXEL), 200, {
      "content-type": "image/png",
      "cache-control": "private, max-age=0",
    });
  });
}
