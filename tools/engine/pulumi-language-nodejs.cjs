#!/usr/bin/env node
// A stand-in for Pulumi's Node.js language host (`pulumi-language-nodejs`), installed beside the engine by
// `npm run engine`.
//
// Why it exists: the Go module proxy serves the Pulumi CLI's modules but refuses the language host's
// module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) at every version, so the real
// host cannot be built here. Without a language host the engine can run only the automation API's inline
// programs; with this one it runs a project's Pulumi.yaml program and a local policy pack, as a user does.
//
// What it does is what the real host does for these calls, and nothing more:
// - Run starts `@pulumi/pulumi/cmd/run` from the program's own node_modules, with the engine's monitor
//   address and the stack's configuration in PULUMI_CONFIG, and answers with the program's outcome;
// - RunPlugin starts `@pulumi/pulumi/cmd/run-policy-pack` (kind "analyzer") or `cmd/run-plugin`, and streams
//   its stdout, stderr and exit code back to the engine;
// - GenerateProgram (the code `pulumi import` and `pulumi convert` print) and GeneratePackage (`pulumi
//   package gen-sdk --language nodejs`) hand the request to `pulumi-language-nodejs-codegen`, installed
//   beside this file from tools/engine/hosts, which answers it with Pulumi's own TypeScript generator.
// Everything else (packing, linking, dependency installation) answers UNIMPLEMENTED, which the engine
// reports by name. The real host also proxies the resource monitor for the SDK's deprecated
// synchronous invokes; this one does not, so those fail.
"use strict";

const { spawn } = require("node:child_process");
const { dirname, join } = require("node:path");

/** Exit code by which `@pulumi/pulumi/cmd/run` says it already printed an actionable message. */
const ACTIONABLE_MESSAGE_EXIT = 32;
/** How often the host looks whether the process that started it is still there. */
const PARENT_POLL_MS = 500;
/** How long children get to end after SIGINT before they are killed, when the host stops. */
const CHILDREN_GRACE_MS = 5000;

/** The engine's address: the last argument that is not a flag (`-root=…`, `-tracing=…` come first). */
function engineAddressFrom(argv) {
  const positional = argv.filter((arg) => !arg.startsWith("-"));
  return positional.at(-1) ?? "";
}

/** Loads gRPC and the language protocol from the @pulumi/pulumi that the project installed. */
function loadPulumiProtocol(projectDir) {
  let sdkDir;
  try {
    sdkDir = dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [projectDir] }));
  } catch {
    process.stderr.write(
      `pulumi-language-nodejs: @pulumi/pulumi is not installed in ${projectDir}. ` +
        "Run `npm install` in the project's folder, then run the Pulumi command again.\n",
    );
    process.exit(1);
  }
  const fromSdk = (name) => require(require.resolve(name, { paths: [sdkDir] }));
  return {
    sdkDir,
    grpc: fromSdk("@grpc/grpc-js"),
    messages: require(join(sdkDir, "proto/language_pb.js")),
    services: require(join(sdkDir, "proto/language_grpc_pb.js")),
    pluginMessages: require(join(sdkDir, "proto/plugin_pb.js")),
    emptyMessages: fromSdk("google-protobuf/google/protobuf/empty_pb.js"),
  };
}

/** The code generator beside this file (both are installed into the engine's folder). */
const CODEGEN = join(__dirname, "pulumi-language-nodejs-codegen");

/**
 * Answers a code generation call by running CODEGEN with `kind` once: the request's bytes on its stdin,
 * the response's on its stdout, and on failure its one line of stderr as the call's error.
 */
function generate(grpc, kind, Response) {
  return (call, callback) => {
    const child = spawn(CODEGEN, [kind], { stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    const fail = (details) => callback({ code: grpc.status.INTERNAL, details });
    child.on("error", (error) => fail(`could not start ${CODEGEN}: ${error.message}`));
    child.on("close", (code) => {
      if (code !== 0) {
        const said = Buffer.concat(err).toString("utf8").trim();
        fail(said || `${CODEGEN} ${kind} exited with code ${code}`);
        return;
      }
      callback(null, Response.deserializeBinary(new Uint8Array(Buffer.concat(out))));
    });
    child.stdin.end(Buffer.from(call.request.serializeBinary()));
  };
}

/** Resolves one of the SDK's command modules from the program's folder, as the real host does. */
function locate(module, programDir) {
  return require.resolve(module, { paths: [programDir] });
}

/** The program's runtime options (Pulumi.yaml `runtime.options`), as a plain object. */
function optionsOf(info) {
  const options = info?.getOptions();
  return options ? options.toJavaScript() : {};
}

/** Environment for a program run: the stack's configuration, and TypeScript unless the project opts out. */
function runEnvironment(request, options) {
  const env = { ...process.env };
  env.PULUMI_CONFIG = JSON.stringify(Object.fromEntries(request.getConfigMap().toObject()));
  env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify(request.getConfigsecretkeysList());
  if (options.typescript !== false) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (typeof options.tsconfig === "string") env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
  return env;
}

/** The command line of `@pulumi/pulumi/cmd/run` for one RunRequest. */
function runArguments(request, engineAddress, runPath) {
  const info = request.getInfo();
  const args = [runPath];
  const flag = (name, value) => {
    if (value !== "" && value !== undefined) args.push(`--${name}`, String(value));
  };
  flag("monitor", request.getMonitorAddress());
  flag("engine", engineAddress);
  flag("organization", request.getOrganization());
  flag("project", request.getProject());
  flag("root-directory", info.getRootDirectory());
  flag("stack", request.getStack());
  flag("pwd", info.getProgramDirectory());
  if (request.getDryrun()) args.push("--dry-run");
  flag("parallel", request.getParallel());
  args.push(info.getEntryPoint() || ".", ...request.getArgsList());
  return args;
}

function serve(protocol, engineAddress) {
  const { grpc, messages, services, pluginMessages, emptyMessages } = protocol;
  const version = require(join(protocol.sdkDir, "package.json")).version;
  // Children still running when the engine cancels or the host is told to stop.
  const children = new Set();
  const track = (child) => {
    children.add(child);
    child.on("exit", () => children.delete(child));
    return child;
  };

  const implementation = {
    getPluginInfo(_call, callback) {
      const info = new pluginMessages.PluginInfo();
      info.setVersion(version);
      callback(null, info);
    },
    getRequiredPlugins(_call, callback) {
      // The engine loads a package's plugin when a resource first asks for it; nothing is downloaded here.
      callback(null, new messages.GetRequiredPluginsResponse());
    },
    getRequiredPackages(_call, callback) {
      callback(null, new messages.GetRequiredPackagesResponse());
    },
    getProgramDependencies(_call, callback) {
      callback(null, new messages.GetProgramDependenciesResponse());
    },
    about(_call, callback) {
      const about = new messages.AboutResponse();
      about.setExecutable(process.execPath);
      about.setVersion(process.version);
      callback(null, about);
    },
    generateProgram: generate(grpc, "generate-program", messages.GenerateProgramResponse),
    generatePackage: generate(grpc, "generate-package", messages.GeneratePackageResponse),
    cancel(_call, callback) {
      for (const child of children) child.kill("SIGINT");
      callback(null, new emptyMessages.Empty());
    },
    run(call, callback) {
      const request = call.request;
      const info = request.getInfo();
      const programDir = info.getProgramDirectory();
      let runPath;
      try {
        runPath = locate("@pulumi/pulumi/cmd/run", programDir);
      } catch {
        const response = new messages.RunResponse();
        response.setError(
          `@pulumi/pulumi is not installed for the program in ${programDir}: run \`npm install\` there first.`,
        );
        callback(null, response);
        return;
      }
      const child = track(
        spawn(process.execPath, runArguments(request, engineAddress, runPath), {
          cwd: request.getPwd() || programDir,
          env: runEnvironment(request, optionsOf(info)),
          stdio: ["ignore", "inherit", "inherit"],
        }),
      );
      child.on("error", (error) => {
        const response = new messages.RunResponse();
        response.setError(`could not start node for the program: ${error.message}`);
        callback(null, response);
      });
      child.on("exit", (code, signal) => {
        const response = new messages.RunResponse();
        if (code === ACTIONABLE_MESSAGE_EXIT) response.setBail(true);
        else if (code !== 0) {
          response.setError(
            signal ? `Program stopped by ${signal}` : `Program exited with non-zero exit code: ${code}`,
          );
        }
        callback(null, response);
      });
    },
    runPlugin(call) {
      const request = call.request;
      const info = request.getInfo();
      const programDir = info.getProgramDirectory();
      const analyzer = request.getKind() === "analyzer";
      const send = (fill) => {
        const message = new messages.RunPluginResponse();
        fill(message);
        call.write(message);
      };
      let runPath;
      try {
        runPath = locate(
          analyzer ? "@pulumi/pulumi/cmd/run-policy-pack" : "@pulumi/pulumi/cmd/run-plugin",
          programDir,
        );
      } catch {
        send((m) =>
          m.setStderr(
            Buffer.from(`@pulumi/pulumi is not installed in ${programDir}: run \`npm install\` there.\n`),
          ),
        );
        send((m) => m.setExitcode(1));
        call.end();
        return;
      }
      // A policy pack takes its folder last; any other plugin takes it first (as the real host passes them).
      const args = analyzer
        ? [runPath, ...request.getArgsList(), programDir]
        : [runPath, programDir, ...request.getArgsList()];
      const env = Object.fromEntries(
        request.getEnvList().map((entry) => {
          const at = entry.indexOf("=");
          return [entry.slice(0, at), entry.slice(at + 1)];
        }),
      );
      const child = track(
        spawn(process.execPath, args, {
          cwd: analyzer || !request.getPwd() ? programDir : request.getPwd(),
          env: Object.keys(env).length > 0 ? env : process.env,
          stdio: ["ignore", "pipe", "pipe"],
        }),
      );
      child.stdout.on("data", (chunk) => send((m) => m.setStdout(chunk)));
      child.stderr.on("data", (chunk) => send((m) => m.setStderr(chunk)));
      child.on("close", (code) => {
        send((m) => m.setExitcode(code ?? 1));
        call.end();
      });
      call.on("cancelled", () => child.kill("SIGINT"));
    },
  };

  const server = new grpc.Server();
  server.addService(services.LanguageRuntimeService, implementation);
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
      process.stderr.write(`pulumi-language-nodejs: could not listen on 127.0.0.1: ${error.message}\n`);
      process.exit(1);
    }
    // The engine reads the port from the first line of stdout.
    process.stdout.write(`${port}\n`);
  });
  // Stops serving, interrupts the children, and exits once they have ended (killed after a grace period).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.forceShutdown();
    for (const child of children) child.kill("SIGINT");
    const waitForChildren = setInterval(() => {
      if (children.size === 0) process.exit(0);
    }, 50);
    setTimeout(() => {
      clearInterval(waitForChildren);
      for (const child of children) child.kill("SIGKILL");
      process.exit(0);
    }, CHILDREN_GRACE_MS);
  };
  process.on("SIGTERM", stop);
  exitWithParent(stop);
}

/**
 * Calls `stop` once the process that started this host is gone, which shows as a change of parent pid
 * (the host is reparented to init, or to a subreaper). The engine stops the hosts it closes, but not one
 * it never closes: the host it starts to load a plugin's schema for a YAML program was left running under
 * init after every such run. (provider/plugin/main.ts watches its parent the same way; nothing can be shared
 * with it: this file is installed alone into the engine folder.)
 */
function exitWithParent(stop) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, PARENT_POLL_MS);
  // The gRPC server keeps the host alive; the watch alone must not.
  watch.unref();
}

// The engine starts language hosts in the project's folder, where its node_modules are.
serve(loadPulumiProtocol(process.cwd()), engineAddressFrom(process.argv.slice(2)));
