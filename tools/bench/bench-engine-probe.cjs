// Loaded (node --require) into the dynamic-provider process by `npm run bench:engine`'s plugin wrapper.
// It appends to $SERVICE_BENCH_PROBE_LOG one line when the process starts and one each time a call into
// this package's runtime contract (@service/pulumi/runtime: check, diff, create, read, update, delete)
// answers, so that the bench can tell the provider's span: from its start to its last answer.
"use strict";
const { appendFileSync } = require("node:fs");
const Module = require("node:module");

const log = process.env.SERVICE_BENCH_PROBE_LOG;
const record = (event, start) =>
  appendFileSync(
    log,
    `${JSON.stringify({ pid: process.pid, event, at: Date.now(), ms: start && Date.now() - start })}\n`,
  );
record("start", undefined);
// The process began before this file loaded: count from Node's own start.
appendFileSync(
  log,
  `${JSON.stringify({ pid: process.pid, event: "origin", at: Math.round(performance.timeOrigin) })}\n`,
);

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
        record(`answer:${name}`, start);
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
