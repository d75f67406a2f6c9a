// Loaded (NODE_OPTIONS=--require) into every Node process a `pulumi` command of `npm run bench:engine`
// starts: the language host's program, the dynamic-provider host and the provider plugin. It appends to
// $SERVICE_BENCH_PROBE_LOG, as JSON lines:
// - `origin`: when the process began (Node's own start, before this file loaded), and what it is;
// - `usage`: its CPU time and peak resident memory so far, every 50 ms while it lives (a host is killed
//   rather than left to exit, so there is no last word to wait for: each process's last sample misses up
//   to 50 ms of CPU, whichever provider it runs, since nothing here samples one provider more often);
// - `answer:<method>`: each time a call into this package's runtime contract (@service/pulumi/runtime:
//   check, diff, create, read, update, delete) answers, with how long it took.
"use strict";
const { appendFileSync } = require("node:fs");
const Module = require("node:module");

const log = process.env.SERVICE_BENCH_PROBE_LOG;
const script = process.argv[1] ?? "";
const kind = script.includes("dynamic-provider")
  ? "dynamic"
  : /run-plugin|[/\\]plugin[/\\]|pulumi-resource-service/.test(script)
    ? "plugin"
    : "other";
const write = (line) => appendFileSync(log, `${JSON.stringify({ pid: process.pid, kind, ...line })}\n`);
write({ event: "origin", at: Math.round(performance.timeOrigin) });

function usage() {
  const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
  write({ event: "usage", at: Date.now(), cpuMs: (userCPUTime + systemCPUTime) / 1000, rssKb: maxRSS });
}
setInterval(usage, 50).unref();
process.on("exit", usage);

const wrapped = new WeakSet();
function wrapResource(resource) {
  if (!resource || typeof resource !== "object" || wrapped.has(resource)) return;
  wrapped.add(resource);
  for (const [name, method] of Object.entries(resource)) {
    if (typeof method !== "function") continue;
    resource[name] = async function probed(...args) {
      const start = Date.now();
      try {
        return await method.apply(this, args);
      } finally {
        write({ event: `answer:${name}`, at: Date.now(), ms: Date.now() - start });
      }
    };
  }
}

const load = Module._load;
Module._load = function probeLoad(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (request === "@service/pulumi/runtime") {
    for (const value of Object.values(exported)) wrapResource(value);
  }
  return exported;
};
