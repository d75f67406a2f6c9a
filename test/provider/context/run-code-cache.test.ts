import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";

import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Script } from "node:vm";
import { crc32 } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wrapChunk } from "../../../provider/context/run-code-cache";

const runtimeFolder = join(require.resolve("@service/pulumi/runtime"), "..");

/**
 * Runs, in a fresh process as the dynamic-provider host would, the Webhook's `method` through the runtime
 * bundle, and prints its answer once the process has done what it does after a call.
 */
function runInHost(method: "check" | "diff", env: NodeJS.ProcessEnv): unknown {
  const script = `
    const runtime = require("@service/pulumi/runtime");
    const inputs = { endpoint: "https://hooks.example.com/events", channel: "a", filters: [] };
    const call = ${JSON.stringify(method)} === "check"
      ? runtime.webhook.check({}, { ...inputs, channel: "" })
      : runtime.webhook.diff("id", inputs, { ...inputs, channel: "b" });
    // After the save that the call queued with setImmediate.
    call.then((answer) => setImmediate(() => process.stdout.write(JSON.stringify(answer))));`;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...process.env, ...env } }),
  );
}

describe("the runtime bundle's code, kept after it ran", () => {
  let nodeCache: string;
  beforeEach(() => {
    nodeCache = mkdtempSync(join(tmpdir(), "run-code-"));
  });
  afterEach(() => rmSync(nodeCache, { recursive: true, force: true }));

  /** Each kept chunk: the methods its entry has seen, its V8 data, and its file's modification time. */
  function entries(): Map<string, { seen: string[]; data: Buffer; mtimeMs: number }> {
    const found = new Map<string, { seen: string[]; data: Buffer; mtimeMs: number }>();
    for (const file of readdirSync(nodeCache, { recursive: true, encoding: "utf8" })) {
      const path = join(nodeCache, file);
      if (!file.includes("service-pulumi-run-code") || !statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      const newline = bytes.indexOf(10);
      const chunk = file
        .split(/[/\\]/)
        .at(-1)!
        .replace(/\.js-.*$/, ".js");
      found.set(chunk, {
        seen: bytes.subarray(0, newline).toString("latin1").split(" ")[0]!.split(","),
        data: bytes.subarray(newline + 1),
        mtimeMs: statSync(path).mtimeMs,
      });
    }
    return found;
  }

  it("holds, after a first check, the functions that ran, which a cache made as the chunk loads lacks", () => {
    const answer = runInHost("check", { NODE_COMPILE_CACHE: nodeCache });
    const kept = entries();
    expect([...kept.keys()].some((chunk) => chunk.startsWith("plan-"))).toBe(true);
    for (const [chunk, { seen, data }] of kept) {
      expect(seen).toEqual(["check"]);
      const source = wrapChunk(readFileSync(join(runtimeFolder, chunk), "utf8"));
      const onLoad = new Script(source, { filename: chunk }).createCachedData();
      // V8 takes the data for the source the hook compiles (it checks its version, flags and length only),
      // and it holds more than what compiles as the chunk loads.
      expect(new Script(source, { filename: chunk, cachedData: data }).cachedDataRejected).toBe(false);
      expect(data.length).toBeGreaterThan(onLoad.length);
    }
    // The same answer as without the cache.
    expect(runInHost("check", { NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual(answer);
  });

  it("keeps the chunks the entry requires as it loads as well, all but the two that turn the caches on", () => {
    runInHost("check", { NODE_COMPILE_CACHE: nodeCache });
    // The requires at the entry's top, which run as it loads (the lifecycles' chunks are required later).
    const lines = readFileSync(join(runtimeFolder, "index.js"), "utf8").split("\n");
    const required = lines
      .slice(
        0,
        lines.findIndex((line) => !/require\("\.\/|Symbol\.toStringTag/.test(line)),
      )
      .flatMap((line) => [...line.matchAll(/require\("\.\/([^"]+\.js)"\)/g)].map((match) => match[1]!));
    const first = ["compile-cache.js", "run-code-cache.js"];
    expect(required.slice(0, 2)).toEqual(first);
    const rest = required.filter((chunk) => !first.includes(chunk) && !chunk.startsWith("rolldown-runtime"));
    expect(rest.length).toBeGreaterThan(2);
    expect(rest.filter((chunk) => !entries().has(chunk))).toEqual([]);
  });

  it("is written again only for a method its entry has not seen, and stays untouched after", () => {
    runInHost("check", { NODE_COMPILE_CACHE: nodeCache });
    const first = entries();
    runInHost("check", { NODE_COMPILE_CACHE: nodeCache });
    expect(entries()).toEqual(first);
    runInHost("diff", { NODE_COMPILE_CACHE: nodeCache });
    const second = entries();
    expect([...second.values()].map((entry) => entry.seen)).toEqual(
      [...first.values()].map(() => ["check", "diff"]),
    );
    runInHost("diff", { NODE_COMPILE_CACHE: nodeCache });
    expect(entries()).toEqual(second);
  });

  it.each([
    ["V8 refuses (intact, but not V8's data)", (_data: Buffer) => Buffer.from("not V8's data")],
    [
      "is damaged (one byte of V8's data changed)",
      (data: Buffer) => Buffer.from(data.map((b, i) => (i === 64 ? b ^ 1 : b))),
    ],
  ])("answers the same from an entry that %s, and writes that entry again", (_case, damage) => {
    const answer = runInHost("check", { NODE_COMPILE_CACHE: nodeCache });
    const [chunk] = [...entries().keys()].filter((name) => name.startsWith("plan-"));
    const path = readdirSync(nodeCache, { recursive: true, encoding: "utf8" })
      .map((file) => join(nodeCache, file))
      .find((file) => file.includes(`${chunk}-`))!;
    const { data } = entries().get(chunk!)!;
    const damaged = damage(data);
    // The header keeps the checksum of what it held before when the data is damaged.
    const checksum = damaged.length === data.length ? crc32(data) : crc32(damaged);
    writeFileSync(path, Buffer.concat([Buffer.from(`check ${checksum}\n`), damaged]));
    expect(runInHost("check", { NODE_COMPILE_CACHE: nodeCache })).toEqual(answer);
    const rewritten = entries().get(chunk!)!;
    expect(rewritten.seen).toEqual(["check"]);
    expect(rewritten.data.equals(damaged)).toBe(false);
    expect(
      new Script(wrapChunk(readFileSync(join(runtimeFolder, chunk!), "utf8")), {
        filename: chunk!,
        cachedData: rewritten.data,
      }).cachedDataRejected,
    ).toBe(false);
  });

  it("answers as usual when an entry cannot be written, and leaves no half-written file behind", () => {
    const answer = runInHost("check", { NODE_DISABLE_COMPILE_CACHE: "1" });
    runInHost("check", { NODE_COMPILE_CACHE: nodeCache });
    const folder = readdirSync(nodeCache, { recursive: true, encoding: "utf8" })
      .map((file) => join(nodeCache, file))
      .find((path) => path.endsWith("service-pulumi-run-code"))!;
    const written = readdirSync(folder);
    expect(written.length).toBeGreaterThan(2);
    // Where each entry would go, a folder: the write succeeds and the rename onto it fails.
    // (Regression: the folders once had names no entry had, and the test passed without a failed write.)
    for (const entry of written) {
      rmSync(join(folder, entry));
      mkdirSync(join(folder, entry));
    }
    expect(runInHost("check", { NODE_COMPILE_CACHE: nodeCache })).toEqual(answer);
    expect(readdirSync(folder).sort()).toEqual([...written].sort());
    for (const entry of written) expect(statSync(join(folder, entry)).isDirectory()).toBe(true);
  });

  it("writes Node's compile cache after a call, which a host stopped by a signal would not have written", async () => {
    // Node writes its cache at a normal exit only, and the engine stops hosts with a signal.
    const nodeEntries = () =>
      readdirSync(nodeCache, { recursive: true, encoding: "utf8" }).filter(
        (file) => !file.includes("service-pulumi-run-code") && statSync(join(nodeCache, file)).isFile(),
      );
    /** Runs `call` in a host-like process, and stops it with SIGKILL from outside once it has settled. */
    const killedAfter = async (call: string) => {
      const host = spawn(
        process.execPath,
        [
          "-e",
          `const runtime = require("@service/pulumi/runtime");
          setInterval(() => {}, 1000);
          ${call}.then(() => setImmediate(() => setImmediate(() => process.stdout.write("settled\\n"))));`,
        ],
        { env: { ...process.env, NODE_COMPILE_CACHE: nodeCache }, stdio: ["ignore", "pipe", "inherit"] },
      );
      await new Promise<void>((resolve) => host.stdout.on("data", () => resolve()));
      const stopped = new Promise((resolve) => host.once("exit", (_code, signal) => resolve(signal)));
      host.kill("SIGKILL");
      expect(await stopped).toBe("SIGKILL");
    };
    await killedAfter("Promise.resolve()");
    expect(nodeEntries()).toEqual([]);
    await killedAfter(`runtime.webhook.check({}, { channel: "" })`);
    expect(nodeEntries().length).toBeGreaterThan(0);
  });

  it("keeps nothing when Node's compile cache is off", () => {
    runInHost("check", { NODE_COMPILE_CACHE: nodeCache, NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(entries().size).toBe(0);
  });
});

describe("a runtime chunk compiled through the kept code, as Node would compile it", () => {
  let copy: string;
  let nodeCache: string;
  beforeEach(() => {
    copy = mkdtempSync(join(tmpdir(), "run-code-runtime-"));
    nodeCache = mkdtempSync(join(tmpdir(), "run-code-"));
    cpSync(runtimeFolder, copy, { recursive: true });
  });
  afterEach(() => {
    rmSync(copy, { recursive: true, force: true });
    rmSync(nodeCache, { recursive: true, force: true });
  });

  /** The chunk of the copy whose text holds `text`. */
  const chunkHolding = (text: string) =>
    readdirSync(copy).find(
      (file) => file.endsWith(".js") && readFileSync(join(copy, file), "utf8").includes(text),
    )!;

  /**
   * Loads the copy's entry in a fresh process, then runs `body` (which has `runtime` and `folder`);
   * `env` is added to the process's environment.
   */
  function inFreshProcess(body: string, env: NodeJS.ProcessEnv = {}): unknown {
    const script = `
      const folder = ${JSON.stringify(copy)};
      const runtime = require(folder + "/index.js");
      (async () => { ${body} })().then((answer) => setImmediate(() => process.stdout.write(JSON.stringify(answer ?? null))));`;
    return JSON.parse(
      execFileSync(process.execPath, ["-e", script], {
        encoding: "utf8",
        env: { ...process.env, NODE_COMPILE_CACHE: nodeCache, ...env },
      }),
    );
  }
  /** The paths of the entries kept so far, and their names. */
  const keptEntryPaths = () =>
    readdirSync(nodeCache, { recursive: true, encoding: "utf8" })
      .filter((file) => /service-pulumi-run-code[/\\]/.test(file))
      .map((file) => join(nodeCache, file));
  const keptEntries = () => keptEntryPaths().map((path) => basename(path));
  /** The rule behind an empty channel's failure, which the tests find their chunk by. */
  const CHANNEL_RULE = 'min(1, "must not be empty").default("default")';
  /** A failure's stack frames, from a call into the runtime that fails in the webhook's apply module. */
  const removeFrames = `return await runtime.webhook.remove("id", {}).catch((error) => error.stack.split("\\n").filter((line) => line.includes(" at ")));`;
  const emptyChannel = `
    const { failures } = await runtime.webhook.check({}, { endpoint: "https://hooks.example.com/e", channel: "", filters: [] });
    return failures.map((f) => f.reason).find((reason) => reason.startsWith("channel"));`;

  it("runs a chunk edited in place with the same length as edited, not the code kept for it before", () => {
    // Regression: entries were named by the chunk's name and length only, and V8 took the old code.
    expect(inFreshProcess(emptyChannel)).toMatch(/^channel must not be empty/);
    const rule = CHANNEL_RULE;
    const chunk = join(copy, chunkHolding(rule));
    writeFileSync(chunk, readFileSync(chunk, "utf8").replace(rule, rule.replace("must not", "MUST NOT")));
    const later = new Date(Date.now() + 10_000);
    utimesSync(chunk, later, later);
    expect(inFreshProcess(emptyChannel)).toMatch(/^channel MUST NOT be empty/);
  });

  it("lets a chunk import() and keeps Node's require stack in its failures", () => {
    // Regression: the chunk's Script had no dynamic-import loader, and its `require` was not its own.
    const chunk = chunkHolding(CHANNEL_RULE);
    writeFileSync(
      join(copy, chunk),
      `${readFileSync(join(copy, chunk), "utf8")}
exports.probeImport = () => import("node:path").then((path) => typeof path.join);
exports.probeRequire = () => { try { require("./no-such-chunk.js"); } catch (error) { return error.requireStack; } };`,
    );
    const answer = inFreshProcess(`
      ${emptyChannel.replace("return", "const reason =")}
      const probes = require(folder + "/" + ${JSON.stringify(chunk)});
      return { reason, imported: await probes.probeImport(), requireStack: probes.probeRequire() };`) as {
      imported: string;
      requireStack: string[];
    };
    expect(answer.imported).toBe("function");
    expect(answer.requireStack[0]).toBe(join(copy, chunk));
    expect(answer.requireStack).toContain(join(copy, "index.js"));
  });

  it("shows a failure's stack at the chunk's own line and column, as Node's loader does", () => {
    // Regression: the wrapper shared the chunk's first line, and columns there read 62 too far right.
    const chunk = join(copy, chunkHolding(CHANNEL_RULE));
    const probe = 'exports.probeFrame = () => new Error("probe").stack.split("\\n")[1]; ';
    writeFileSync(chunk, `${probe}${readFileSync(chunk, "utf8")}`);
    const body = `${emptyChannel.replace("return", "const reason =")}
      return require(${JSON.stringify(chunk)}).probeFrame();`;
    const frame = inFreshProcess(body);
    expect(frame).toContain(`${chunk}:1:${probe.indexOf("new Error") + 1})`);
    expect(inFreshProcess(body, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBe(frame);
    // And run from the code kept by the first run: V8 took it, or the entry would have been written again.
    const kept = keptEntryPaths().find((path) => basename(path).startsWith(`${basename(chunk)}-`))!;
    const written = statSync(kept).mtimeMs;
    expect(inFreshProcess(body)).toBe(frame);
    expect(statSync(kept).mtimeMs).toBe(written);
  });

  it("leaves the chunks to Node's loader under --enable-source-maps, so failures show the sources' lines", () => {
    // Regression: only what Node's loader compiles is mapped, and the stack showed the bundle's lines.
    const frames = inFreshProcess(removeFrames, { NODE_OPTIONS: "--enable-source-maps" }) as string[];
    expect(frames[0]).toMatch(/\(.*provider[/\\]webhook[/\\]apply\.ts:\d+:\d+\)$/);
    expect(keptEntries()).toEqual([]);
  });

  it("leaves the chunks loaded after a program turns source maps on to Node's loader as well", () => {
    const frames = inFreshProcess(`process.setSourceMapsEnabled(true); ${removeFrames}`) as string[];
    expect(frames[0]).toMatch(/\(.*provider[/\\]webhook[/\\]apply\.ts:\d+:\d+\)$/);
  });

  it("keeps the entries of the four installs used last, and removes older ones", () => {
    const chunks = readdirSync(copy).filter((file) => file.endsWith(".js"));
    /** Gives the copy's files the time of `install`, as a new install of the same version would. */
    const install = (n: number) => {
      const at = new Date(Date.UTC(2026, 0, n));
      for (const file of chunks) utimesSync(join(copy, file), at, at);
      expect(inFreshProcess(emptyChannel)).toMatch(/^channel must not be empty/);
      return at.getTime();
    };
    const plan = chunks.find((file) => file.startsWith("plan-"))!;
    const installsKept = () =>
      keptEntries()
        .filter((entry) => entry.startsWith(`${plan}-`))
        .map((entry) => Number(entry.split("-").at(-1)))
        .sort();
    const times = [1, 2, 3, 4, 5, 6].map(install);
    expect(installsKept()).toEqual(times.slice(2));
    // The first install, used again, writes its entries anew and keeps them: the least used go.
    install(1);
    expect(installsKept()).toEqual([times[0], ...times.slice(3)]);
    // The fourth install's entries, last used two days ago, then read by a command of that install (which
    // writes nothing): a fifth install written after it evicts the fifth, used least lately, not it.
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    const ofInstall = (at: number) => keptEntryPaths().filter((path) => path.endsWith(`-${at}`));
    for (const path of ofInstall(times[3]!)) utimesSync(path, twoDaysAgo, twoDaysAgo);
    install(4);
    const seventh = install(7);
    expect(installsKept()).toEqual([times[0], times[3], times[5], seventh].sort());
  });

  it("removes entries unused for 30 days and writes a host never finished, and keeps the rest", () => {
    expect(inFreshProcess(emptyChannel)).toMatch(/^channel must not be empty/);
    const folder = join(
      nodeCache,
      readdirSync(nodeCache, { recursive: true, encoding: "utf8" }).find((file) =>
        file.endsWith("service-pulumi-run-code"),
      )!,
    );
    const day = 24 * 60 * 60 * 1000;
    const planted = {
      "old-version-AAAAAAAA.js-100-1700000000000": Date.now() - 31 * day,
      "recent-version-BBBBBBBB.js-100-1700000000000": Date.now() - 29 * day,
      "old-version-AAAAAAAA.js-100-1700000000000.4242": Date.now() - 2 * 60 * 1000,
      "recent-version-BBBBBBBB.js-100-1700000000000.4343": Date.now() - 10 * 1000,
      "not-an-entry.txt": Date.now() - 365 * day,
    };
    for (const [name, at] of Object.entries(planted)) {
      writeFileSync(join(folder, name), "planted");
      utimesSync(join(folder, name), new Date(at), new Date(at));
    }
    // A method the entries have not seen: they are written again, and the folder pruned.
    inFreshProcess(
      `return await runtime.webhook.diff("id", { endpoint: "https://hooks.example.com/e", channel: "a", filters: [] }, { endpoint: "https://hooks.example.com/e", channel: "b", filters: [] });`,
    );
    const left = readdirSync(folder);
    expect(left).not.toContain("old-version-AAAAAAAA.js-100-1700000000000");
    expect(left).not.toContain("old-version-AAAAAAAA.js-100-1700000000000.4242");
    expect(left).toContain("recent-version-BBBBBBBB.js-100-1700000000000");
    expect(left).toContain("recent-version-BBBBBBBB.js-100-1700000000000.4343");
    expect(left).toContain("not-an-entry.txt");
    expect(left.some((name) => name.startsWith(`${chunkHolding(CHANNEL_RULE)}-`))).toBe(true);
  });
});
