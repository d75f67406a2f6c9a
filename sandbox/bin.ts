#!/usr/bin/env node
import { parseArgs } from "node:util";
import { hostnameOf, isLoopback } from "../contract/loopback";
import { ADMIN_TOKEN_HEADER, DEFAULT_PORT, DEMO_TOKEN, startSandbox } from "./index";
import { stopWithLauncher } from "./launcher-watch";

const USAGE = [
  `usage: service-sandbox [--port <n>, default ${DEFAULT_PORT}; 0 picks a free one] [--host 127.0.0.1; beyond loopback the admin routes need a token, printed at start or set in SERVICE_SANDBOX_ADMIN_TOKEN] [--seed <file.json>] [--serve-dir <folder>]`,
  "       service-sandbox demo   (the whole loop against a receiver of your kind, then exits)",
].join("\n");

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      seed: { type: "string" },
      "serve-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length > 0) {
    if (positionals.join(" ") !== "demo")
      throw new Error(`unknown command "${positionals.join(" ")}"\n${USAGE}`);
    // Loaded only here: the demo pulls in a receiver, which the sandbox alone does not need.
    await (await import("./demo-loop.js")).runDemo();
    return;
  }
  const port = Number(values.port ?? DEFAULT_PORT);
  if (values.port?.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a port number (0 picks a free one)\n${USAGE}`);
  }
  const sandbox = await startSandbox({
    port,
    host: values.host,
    seed: values.seed,
    serveDir: values["serve-dir"],
  });
  // Tools read the base URL from the first line; keep it first and keep its shape.
  process.stdout.write(`service-sandbox listening on ${sandbox.url}\n`);
  if (values.seed === undefined) {
    process.stdout.write(`demo organization "demo"; API token: ${DEMO_TOKEN}\n`);
  }
  process.stdout.write(`admin routes: ${sandbox.url}/_sandbox\n`);
  if (!isLoopback(hostnameOf(values.host))) {
    process.stderr.write(
      `warning: listening beyond loopback on ${values.host}: anyone who can reach this port can call the API with a seeded token, and the admin routes (/_sandbox/*) answer only requests with the header ${ADMIN_TOKEN_HEADER}: <admin token>\n`,
    );
  }
  // Printed only when made up here; a token set by option or environment is the caller's to know.
  if (sandbox.adminTokenGenerated) process.stdout.write(`admin token: ${sandbox.adminToken}\n`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // Killing `npx service-sandbox` (SIGTERM or SIGKILL) must not leave this process on the port.
  stopWithLauncher((launcher) => {
    // Its terminal or pipe may be gone with it: a failed write must not turn the stop into a crash.
    process.stderr.on("error", () => {});
    process.stderr.write(
      `service-sandbox: stopping, the process that started it (pid ${launcher}) is gone\n`,
    );
    stop();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`service-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
