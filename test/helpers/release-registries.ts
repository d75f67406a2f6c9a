/**
 * The registries a user installs a release from, started on 127.0.0.1 over a release folder
 * (`npm run release` writes dist/release/): a static file server (the plugin downloads, and a PEP 503
 * index of the Python distribution), Verdaccio, an npm registry with no uplinks, and pypiserver, a Python
 * index that takes uploads. Plus a PATH on which no `node` can be found, for the languages whose users
 * have none.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, extname, join, normalize } from "node:path";
import { findExecutable } from "../../tools/quickstart/pulumi-cli";
import type { Manifest } from "../../tools/release/manifest.mts";
import { pythonTool } from "../../tools/release/python.mts";

const root = join(__dirname, "../..");

/** How long one install, build or publish command may take. */
const COMMAND_MS = 240_000;

/**
 * Runs a command outside the engine (npm, pip, go, the publishing script) to its end, and returns what it
 * printed. Asynchronous: the registries and the sandbox run in the test's process and must go on
 * answering it. A failure or a stop after COMMAND_MS names the command and holds all it printed.
 */
export function runToEnd(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), COMMAND_MS);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else
        reject(
          new Error(
            `\`${command} ${args.join(" ")}\` ${signal ? `was stopped after ${COMMAND_MS / 1000} s` : `exited ${code}`} in ${cwd}:\n${stdout}${stderr}`,
          ),
        );
    });
  });
}

/** A server on 127.0.0.1 over a folder, which remembers every path asked of it. */
export interface StaticServer {
  readonly url: string;
  /** The paths requested so far, in order. */
  readonly requested: readonly string[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
};

/** Serves `dir` as files; a folder's path serves its index.html, as a static host does (pip needs it). */
export async function startStaticServer(dir: string): Promise<StaticServer> {
  const requested: string[] = [];
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    requested.push(path);
    if (path.split("/").includes("..")) return void response.writeHead(400).end();
    const file = join(dir, path);
    const target = existsSync(file) && statSync(file).isDirectory() ? join(file, "index.html") : file;
    try {
      const body = await readFile(target);
      const type = CONTENT_TYPES[extname(target)] ?? "application/octet-stream";
      response.writeHead(200, { "content-type": type, "content-length": body.length }).end(body);
    } catch {
      response.writeHead(404).end(`${path} is not in ${dir}`);
    }
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/**
 * A PEP 503 "simple" index of the release's Python distribution in a new folder under `parent`: the wheel
 * and sdist, linked with their SHA-256 from `simple/<distribution>/`.
 */
export function pythonIndex(releaseDir: string, manifest: Manifest, parent: string): string {
  const dir = join(parent, "pypi");
  const project = join(dir, "simple", manifest.python.distribution);
  mkdirSync(project, { recursive: true });
  const links = [manifest.python.wheel, manifest.python.sdist].map((file) => {
    cpSync(join(releaseDir, file), join(project, file));
    const sha256 = manifest.artifacts.find((a) => a.file === file)?.sha256;
    return `<a href="${file}#sha256=${sha256}">${file}</a>`;
  });
  writeFileSync(
    join(project, "index.html"),
    `<!DOCTYPE html><html><body>\n${links.join("<br>\n")}\n</body></html>\n`,
  );
  writeFileSync(
    join(dir, "simple", "index.html"),
    `<!DOCTYPE html><html><body><a href="${manifest.python.distribution}/">${manifest.python.distribution}</a></body></html>\n`,
  );
  return dir;
}

/** Verdaccio, installed once into this cache (its registry packages pin node-fetch 2.7.0 to install). */
const VERDACCIO_DIR = join(root, "node_modules/.cache/service-pulumi-release/verdaccio");
const VERDACCIO_VERSION = "6.10.4";

function installVerdaccio(): void {
  if (existsSync(join(VERDACCIO_DIR, "node_modules/verdaccio/package.json"))) return;
  mkdirSync(VERDACCIO_DIR, { recursive: true });
  writeFileSync(
    join(VERDACCIO_DIR, "package.json"),
    JSON.stringify({
      private: true,
      dependencies: { verdaccio: VERDACCIO_VERSION },
      // verdaccio-audit's node-fetch range resolves to a release that no longer installs.
      overrides: { "verdaccio-audit": { "node-fetch": "2.7.0" } },
    }),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
    cwd: VERDACCIO_DIR,
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** A local npm registry that publishes and serves anything, and proxies nothing. */
export interface NpmRegistry {
  readonly url: string;
  /** A user npmrc with an auth token line for it, as `npm publish` needs one. */
  readonly userConfig: string;
  close(): Promise<void>;
}

/** How long Verdaccio may take to say its port. */
const VERDACCIO_START_MS = 30_000;

/** Starts Verdaccio on 127.0.0.1 with its storage in a new folder, no uplinks and no audit middleware. */
export async function startVerdaccio(): Promise<NpmRegistry> {
  installVerdaccio();
  const dir = mkdtempSync(join(tmpdir(), "verdaccio-"));
  writeFileSync(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $all",
      "middlewares:",
      "  audit:",
      "    enabled: false",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  // Listening on port 0 from the API, so that the port is the one the server holds, with no race.
  const script =
    `require(${JSON.stringify(join(VERDACCIO_DIR, "node_modules/verdaccio"))}).runServer(process.argv[1])` +
    '.then((app) => { const s = app.listen(0, "127.0.0.1", () => process.stdout.write(s.address().port + "\\n")); });';
  const child = spawn(process.execPath, ["-e", script, join(dir, "config.yaml")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stopped = () =>
    new Promise<void>((done) => (child.exitCode !== null ? done() : child.once("exit", () => done())));
  try {
    const port = await portPrinted(child, "Verdaccio", VERDACCIO_START_MS);
    const url = `http://127.0.0.1:${port}`;
    const userConfig = join(dir, "npmrc");
    writeFileSync(userConfig, `//127.0.0.1:${port}/:_authToken=release-test\n`);
    return {
      url,
      userConfig,
      async close() {
        child.kill();
        await stopped();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child.kill();
    await stopped();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A local Python package index that takes uploads. */
export interface PythonIndex {
  /** Where twine uploads (`--repository-url`). */
  readonly uploadUrl: string;
  /** The PEP 503 index pip installs from (`--index-url`). */
  readonly simpleUrl: string;
  close(): Promise<void>;
}

/** pypiserver, installed once into a virtualenv under node_modules/.cache. */
const PYPISERVER_PACKAGE = "pypiserver==2.4.2";
/** How long pypiserver may take to say its port. */
const PYPISERVER_START_MS = 30_000;
/**
 * pypiserver's app on Python's own WSGI server, on a port of the system's choosing that it prints: no
 * password file and no authenticated action, so any upload is taken (pypiserver refuses them otherwise).
 */
const PYPISERVER_SCRIPT = `
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server
import pypiserver
class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass
server = make_server("127.0.0.1", 0, pypiserver.app(roots=[sys.argv[1]], authenticate=[], password_file="."), handler_class=Quiet)
print(server.server_port, flush=True)
server.serve_forever()
`;

/** Starts pypiserver on 127.0.0.1 over a new, empty package folder. */
export async function startPypiServer(): Promise<PythonIndex> {
  const python = pythonTool("pypiserver", PYPISERVER_PACKAGE);
  const dir = mkdtempSync(join(tmpdir(), "pypiserver-"));
  const child = spawn(python, ["-c", PYPISERVER_SCRIPT, dir], { stdio: ["ignore", "pipe", "pipe"] });
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      child.kill();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await portPrinted(child, "pypiserver", PYPISERVER_START_MS);
    const url = `http://127.0.0.1:${port}`;
    return { uploadUrl: `${url}/`, simpleUrl: `${url}/simple/`, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The port a server process prints as its first line (Verdaccio here, and a provider plugin), within `ms`;
 * what it printed on stderr, or its exit, is the failure otherwise.
 */
export function portPrinted(child: ChildProcess, name: string, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => reject(new Error(`${name} printed no port in ${ms / 1000} s: ${err}`)),
      ms,
    );
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const port = /^(\d+)\n/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(Number(port));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code} before it printed a port: ${err}`));
    });
  });
}

/** Programs a Node.js installation puts on PATH: none may be found where a user has no Node. */
const NODE_PROGRAMS = new Set(["node", "nodejs", "npm", "npx", "corepack"]);

/**
 * Whether `file` is a script that Node runs (`#!/usr/bin/env node`), such as the bins that npm links
 * beside a node in node_modules/.bin: a user with no Node has none of them. Regression: a PATH that led
 * with a project's node_modules/.bin kept its `pulumi-resource-service` launcher, which the engine then
 * ran in place of the plugin the scenario installs, and which failed for want of node.
 */
function runsOnNode(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(128);
    const read = readSync(fd, head, 0, head.length, 0);
    return /^#!.*\bnode\b/.test(head.subarray(0, read).toString("utf8").split("\n")[0]!);
  } catch {
    // A folder, or a link to nothing: not a script.
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A PATH with `first` in front, then every folder of this PATH but this repository's (its
 * node_modules/.bin), where each folder that holds Node is replaced by a copy of it (symbolic links, in
 * `parent`) without Node's programs: the machine of a Python, Go or YAML team, whose tools are all there
 * but Node.
 */
export function pathWithoutNode(first: readonly string[], parent: string): string {
  const dirs = [...new Set((process.env.PATH ?? "").split(delimiter))].filter(
    (dir) => dir !== "" && existsSync(dir) && !dir.startsWith(root),
  );
  const kept = dirs.map((dir, i) => {
    if (!findExecutable("node", { env: { PATH: dir } })) return dir;
    const copy = join(parent, `path-${i}`);
    mkdirSync(copy, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (!NODE_PROGRAMS.has(name) && !runsOnNode(join(dir, name)))
        symlinkSync(join(dir, name), join(copy, name));
    }
    return copy;
  });
  const path = [...first, ...kept].join(delimiter);
  const node = findExecutable("node", { env: { PATH: path } });
  if (node) throw new Error(`PATH still finds node at ${node}: the scenario would not be one without Node.`);
  return path;
}
