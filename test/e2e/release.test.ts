/**
 * The release (`npm run release`, dist/release/) installed the way users install a provider, in new folders
 * outside the repository, from registries on 127.0.0.1, under the real engine and against the sandbox:
 * - npm: the tarball published to Verdaccio, `npm install @service/pulumi`, a TypeScript program;
 * - Python, with no node on PATH: `pip install service-pulumi==<version>` from a PEP 503 index, and the
 *   engine downloads the plugin binary by itself, from the server its SDK names (mapped to 127.0.0.1 by
 *   PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES);
 * - YAML, with no node: the plugin alone, downloaded the same way;
 * - the plugin binary: `pulumi plugin install --file` and `--server`, and its start with no node;
 * - Go, with no node: the module from the release's module-proxy folder (GOPROXY=file://…).
 * Every program runs up, an unchanged preview, refresh, a replace and destroy, with one active webhook per
 * resource after each `up` and none after `destroy`, and no planted secret in anything printed or stored.
 * `npm run test:release` builds the release first.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PYTHON_PULUMI_VERSION, pinnedPulumiVersion } from "../../tools/engine/pulumi-engine.mts";
import { CHECKSUMS_FILE, type Manifest, readManifest, sha256Of } from "../../tools/release/manifest.mts";
import { SEA_FUSE } from "../../tools/release/plugin-binary.mts";
import { executableName, PLUGIN_TARGETS, pluginTarball } from "../../tools/release/targets.mts";
import { describeUnderEngine, engineGate, type PulumiProject, pulumiProject } from "../helpers/engine";
import { pointDevStackAt, runDevStack } from "../helpers/examples";
import {
  pathWithoutNode,
  portPrinted,
  pythonIndex,
  runToEnd,
  type StaticServer,
  startStaticServer,
  startVerdaccio,
} from "../helpers/release-registries";
import {
  domainStack,
  expectNoSecretIn,
  expectOneActivePerResource,
  type Stage,
  useStage,
} from "../helpers/stage";

const root = join(__dirname, "../..");
const releaseDir = join(root, "dist/release");
/** The platform of this machine, in Pulumi's names. */
const PLATFORM = {
  os: process.platform === "win32" ? "windows" : process.platform,
  arch: process.arch === "x64" ? "amd64" : process.arch,
};

/** Runs a command outside the engine (npm, pip, go) to its end, and returns what it printed on stdout. */
const run = async (...command: Parameters<typeof runToEnd>) => (await runToEnd(...command)).stdout;

describeUnderEngine("the release, installed as users install it", { tools: ["python3", "go"] }, () => {
  let manifest: Manifest;
  /** New folders outside the repository, one per scenario. */
  let work: string;
  /** The plugin downloads: dist/release over HTTP, the stand-in for the GitHub release. */
  let downloads: StaticServer;
  const engineDir = dirname(engineGate().cli ?? "pulumi");

  beforeAll(async () => {
    if (!existsSync(releaseDir))
      throw new Error(
        `${releaseDir} does not exist: run \`npm run release\` first (npm run test:release does).`,
      );
    manifest = readManifest(releaseDir);
    work = mkdtempSync(join(tmpdir(), "service-pulumi-release-"));
    downloads = await startStaticServer(releaseDir);
  });
  afterAll(async () => {
    await downloads?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });
  const stages = useStage();

  /** A new folder for a scenario, outside the repository. */
  const folder = (name: string) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  /**
   * The environment of a user with no Node.js, whose engine may download plugins: the CLI's folder first
   * on PATH, then the machine's tools without Node, and the plugin's server mapped to `downloads`.
   */
  let path: string | undefined;
  const withoutNode = (): NodeJS.ProcessEnv => {
    const server = manifest.plugin.server.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    path ??= pathWithoutNode([engineDir], folder("bin-without-node"));
    return {
      PATH: path,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${server}=${downloads.url}`,
    };
  };

  /** The plugin tarball for this machine, as the engine asks for it. */
  const tarballPath = () => `/${pluginTarball(manifest.version, PLATFORM)}`;

  /** A new stack in `dir`, pointed at the stage, with its Domain on DOMAIN_HOST. */
  const stackIn = (
    stage: Stage,
    dir: string,
    env: NodeJS.ProcessEnv,
    settings: Record<string, unknown> = {},
  ) => domainStack(stage, settings, { at: dir, env });

  /**
   * up (one active webhook per resource), an unchanged preview with no API call, refresh, a replace
   * (`replace` changes one webhook's channel: a new webhook takes its place, the old one is deactivated),
   * destroy. `up` has run before, when the scenario times it.
   */
  async function lifecycle(
    stage: Stage,
    project: PulumiProject,
    webhooks: number,
    replace: (project: PulumiProject) => Promise<unknown>,
  ) {
    await expectOneActivePerResource(stage, [project]);
    expect(await stage.active()).toHaveLength(webhooks);
    const mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);
    await project.run(["refresh", "--yes", "--skip-preview"]);
    await project.run(["preview", "--expect-no-changes"]);
    const before = await stage.active();
    await replace(project);
    await project.run(["up", "--yes"]);
    await expectOneActivePerResource(stage, [project]);
    const after = await stage.active();
    expect(after).toHaveLength(webhooks);
    expect(after.filter((uuid) => !before.includes(uuid))).toHaveLength(1);
    const state = JSON.stringify(await project.exported());
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
    expectNoSecretIn([state], stage);
  }

  it("MANIFEST.json lists every artifact at package.json's version, with the checksum SHA256SUMS gives and the file's own", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(manifest.version).toBe(version);
    const sums = new Map(
      readFileSync(join(releaseDir, CHECKSUMS_FILE), "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split(/ {2}/).reverse() as [string, string]),
    );
    for (const artifact of manifest.artifacts) {
      expect(artifact.version, artifact.file).toBe(version);
      expect(sha256Of(join(releaseDir, artifact.file)), artifact.file).toBe(artifact.sha256);
      expect(sums.get(artifact.file), artifact.file).toBe(artifact.sha256);
    }
    expect(manifest.plugin.files.map((f) => `${f.os}-${f.arch}`)).toContain(
      `${PLATFORM.os}-${PLATFORM.arch}`,
    );
    expect([manifest.npm.version, manifest.python.version, manifest.go.version.slice(1)]).toEqual([
      version,
      version,
      version,
    ]);
  });

  it("each plugin tarball holds one executable with the plugin injected, for every platform built", async () => {
    for (const { os, arch, file } of manifest.plugin.files) {
      const dir = folder(`unpacked-${os}-${arch}`);
      await run("tar", ["-xzf", join(releaseDir, file), "-C", dir], dir, process.env);
      expect(readdirSync(dir).sort(), file).toEqual(["LICENSE", executableName({ os })]);
      // postject turns Node's fuse on when it injects the blob: Node then runs the blob, not a REPL.
      expect(readFileSync(join(dir, executableName({ os }))).includes(`${SEA_FUSE}:1`), file).toBe(true);
    }
  });

  it("the npm package's SBOM lists exactly its runtime dependencies and theirs, with licences, and no development tool", () => {
    const sbom = manifest.artifacts.find((a) => a.kind === "sbom" && a.name === manifest.npm.name);
    const bom = JSON.parse(readFileSync(join(releaseDir, sbom!.file), "utf8")) as {
      metadata: { component: { name: string; version: string } };
      components: { name: string; version: string; licenses?: { expression: string }[] }[];
    };
    expect(bom.metadata.component).toEqual(
      expect.objectContaining({ name: manifest.npm.name, version: manifest.version }),
    );
    const { dependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // None of them has dependencies of its own today; a new one's would be listed too.
    expect(bom.components.map((c) => c.name).sort()).toEqual(Object.keys(dependencies).sort());
    for (const c of bom.components) {
      const installed = JSON.parse(readFileSync(join(root, "node_modules", c.name, "package.json"), "utf8"));
      expect([c.version, c.licenses], c.name).toEqual([
        installed.version,
        [{ expression: installed.license }],
      ]);
    }
  });

  it("the plugin's SBOM names each runtime dependency it carries, at the version installed here, and its Node.js", () => {
    // The npm package requires undici, zod and hono from the user's node_modules; the executable carries its
    // own, and only its SBOM can say which.
    const sbom = manifest.artifacts.find((a) => a.kind === "sbom" && a.name === "pulumi-resource-service");
    const bom = JSON.parse(readFileSync(join(releaseDir, sbom!.file), "utf8")) as {
      metadata: { component: { name: string; version: string } };
      components: { type: string; name: string; version: string; licenses?: { expression: string }[] }[];
    };
    expect(bom.metadata.component).toMatchObject({
      name: "pulumi-resource-service",
      version: manifest.version,
    });
    const installed = (name: string) =>
      (
        JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as {
          version: string;
        }
      ).version;
    for (const name of ["undici", "zod", "@pulumi/pulumi", "@grpc/grpc-js"]) {
      expect(
        bom.components.filter((c) => c.name === name).map((c) => c.version),
        name,
      ).toContain(installed(name));
    }
    // Each with its licence, as its package.json states it.
    expect(bom.components.filter((c) => c.type === "library" && !c.licenses)).toEqual([]);
    expect(bom.components.find((c) => c.name === "undici")?.licenses).toEqual([{ expression: "MIT" }]);
    // Each Node version the executables are made of, once.
    expect(
      bom.components
        .filter((c) => c.type === "platform")
        .map((c) => `${c.name}@${c.version}`)
        .sort(),
    ).toEqual([...new Set(PLUGIN_TARGETS.map((target) => `node@${target.nodeVersion}`))].sort());
  });

  it("npm: the tarball published to a local registry installs as @service/pulumi, and a TypeScript program goes up, previews with no API call, refreshes, replaces a webhook and is destroyed", async () => {
    const registry = await startVerdaccio();
    try {
      const dir = folder("typescript");
      await run(
        "npm",
        [
          "publish",
          join(releaseDir, manifest.npm.file),
          "--registry",
          registry.url,
          "--userconfig",
          registry.userConfig,
        ],
        dir,
        process.env,
      );
      cpSync(join(__dirname, "release-programs/typescript"), dir, { recursive: true });
      writeFileSync(join(dir, ".npmrc"), `@service:registry=${registry.url}/\n`);
      const pulumiVersion = (
        JSON.parse(readFileSync(join(root, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as {
          version: string;
        }
      ).version;
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({ name: "infra", private: true, type: "module" }),
      );
      await run(
        "npm",
        [
          "install",
          `${manifest.npm.name}@${manifest.npm.version}`,
          `@pulumi/pulumi@${pulumiVersion}`,
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--loglevel=error",
        ],
        dir,
        process.env,
      );
      const installed = JSON.parse(
        readFileSync(join(dir, "node_modules", manifest.npm.name, "package.json"), "utf8"),
      ) as { version: string };
      expect(installed.version).toBe(manifest.version);

      const stage = stages.current;
      const project = await stackIn(stage, dir, {});
      await project.run(["up", "--yes"]);
      await lifecycle(stage, project, 2, (p) => p.config("authenticationChannel", "authentications-v2"));
    } finally {
      await registry.close();
    }
  });

  it("Python, with no node on PATH: pip install service-pulumi from a local index, and the engine downloads the plugin binary by itself; up, a preview with no API call, refresh, a replace, destroy", async () => {
    const dir = folder("python");
    const env = withoutNode();
    const index = await startStaticServer(pythonIndex(releaseDir, manifest, work));
    try {
      // A user's shell: this machine's wheel folder is not theirs.
      const shell: NodeJS.ProcessEnv = { ...process.env, PATH: env.PATH };
      delete shell.PIP_FIND_LINKS;
      const started = performance.now();
      await run("python3", ["-m", "venv", "venv"], dir, shell);
      const pypi =
        process.env.PIP_INDEX_URL ??
        (await run("venv/bin/python", ["-c", PIP_DEFAULT_INDEX], dir, shell)).trim();
      await run(
        "venv/bin/pip",
        [
          "install",
          "--quiet",
          "--index-url",
          `${index.url}/simple`,
          "--extra-index-url",
          pypi,
          `${manifest.python.distribution}==${manifest.python.version}`,
          `pulumi==${PYTHON_PULUMI_VERSION}`,
        ],
        dir,
        shell,
      );
      expect(index.requested).toContain(`/simple/${manifest.python.distribution}/${manifest.python.wheel}`);
      writeFileSync(
        join(dir, "Pulumi.yaml"),
        "name: service-release-python\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
      );
      // The program itself refuses to run where node can be found.
      writeFileSync(
        join(dir, "__main__.py"),
        'import shutil\nif shutil.which("node"):\n    raise SystemExit(f"node is on PATH: {shutil.which(\'node\')}")\n\n' +
          readFileSync(join(__dirname, "python-program/__main__.py"), "utf8"),
      );
      const stage = stages.current;
      const project = await stackIn(stage, dir, env, {
        webhooks: [
          { name: "authentications", kind: "authentication" },
          { name: "fingerprints", kind: "fingerprint" },
        ],
      });
      await project.run(["up", "--yes"]);
      console.info(
        `release: pip install to the end of the first pulumi up, plugin cache cold: ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      expect(downloads.requested).toContain(tarballPath());
      const plugins = await project.run(["plugin", "ls"]);
      expect(plugins.output).toMatch(
        new RegExp(`service\\s+resource\\s+${manifest.version.replaceAll(".", "\\.")}`),
      );
      await lifecycle(stage, project, 2, (p) =>
        p.config(
          "webhooks",
          JSON.stringify([
            { name: "authentications", kind: "authentication", channel: "authentications-v2" },
            { name: "fingerprints", kind: "fingerprint" },
          ]),
        ),
      );
      expectNoSecretIn([project.checkpointFile("service-release-python", "dev")], stage);
    } finally {
      await index.close();
    }
  });

  it("examples/python from the release artifacts, as its README says, with no node on PATH: use_release.py, pip install -r requirements.txt; up, an unchanged preview with no API call, destroy", async () => {
    const stage = stages.current;
    const dir = folder("example-python");
    cpSync(join(root, "examples/python"), dir, { recursive: true });
    const env = withoutNode();
    const project = pulumiProject({ at: dir, env });
    // A user's shell, with the project's Pulumi home: this machine's wheel folder is not theirs.
    const shell: NodeJS.ProcessEnv = { ...process.env, PATH: env.PATH, PULUMI_HOME: project.env.PULUMI_HOME };
    delete shell.PIP_FIND_LINKS;
    await run("python3", ["use_release.py", releaseDir], dir, shell);
    await run("python3", ["-m", "venv", "venv"], dir, shell);
    await run("venv/bin/pip", ["install", "--quiet", "-r", "requirements.txt"], dir, shell);

    const name = /^name: (\S+)$/m.exec(readFileSync(join(dir, "Pulumi.yaml"), "utf8"))![1]!;
    pointDevStackAt(stage, dir, name);
    const requested = downloads.requested.length;
    // The plugin use_release.py installed: the engine downloads none.
    await runDevStack(stage, project, name, () => expect(downloads.requested.length).toBe(requested));
  });

  it("YAML, with no node on PATH: the engine downloads the plugin the program's options name; up, a preview with no API call, refresh, a replace, destroy", async () => {
    const dir = folder("yaml");
    cpSync(join(__dirname, "release-programs/yaml"), dir, { recursive: true });
    // The program names the version a user would write; it is this release's.
    const program = join(dir, "Pulumi.yaml");
    writeFileSync(
      program,
      readFileSync(program, "utf8").replace(/version: \S+/g, `version: ${manifest.version}`),
    );
    expect(readFileSync(program, "utf8")).toContain(`pluginDownloadURL: ${manifest.plugin.server}`);
    const before = downloads.requested.length;
    const stage = stages.current;
    const project = await stackIn(stage, dir, withoutNode());
    await project.run(["up", "--yes"]);
    await lifecycle(stage, project, 1, (p) => p.config("channel", "orders-v2"));
    expect(downloads.requested.slice(before)).toContain(tarballPath());
    expectNoSecretIn([project.checkpointFile("service-release-yaml", "dev")], stage);
  });

  it("the plugin installs with pulumi plugin install --file and --server, pulumi plugin ls shows it, and it serves with no node on PATH", async () => {
    const env = withoutNode();
    const listed = new RegExp(`service\\s+resource\\s+${manifest.version.replaceAll(".", "\\.")}`);
    const fromFile = pulumiProject({ at: folder("plugin-file"), env });
    await fromFile.run([
      "plugin",
      "install",
      "resource",
      manifest.plugin.name,
      manifest.version,
      "--file",
      join(releaseDir, pluginTarball(manifest.version, PLATFORM)),
    ]);
    expect((await fromFile.run(["plugin", "ls"])).output).toMatch(listed);

    const fromServer = pulumiProject({ at: folder("plugin-server"), env });
    const before = downloads.requested.length;
    await fromServer.run([
      "plugin",
      "install",
      "resource",
      manifest.plugin.name,
      manifest.version,
      "--server",
      downloads.url,
    ]);
    expect(downloads.requested.slice(before)).toContain(tarballPath());
    expect((await fromServer.run(["plugin", "ls"])).output).toMatch(listed);

    // The installed executable serves: it prints its port, with no Node.js anywhere on PATH.
    const executable = join(
      fromServer.env.PULUMI_HOME!,
      "plugins",
      `resource-${manifest.plugin.name}-v${manifest.version}`,
      "pulumi-resource-service",
    );
    const started = performance.now();
    expect(await firstPort(executable, [], { PATH: env.PATH! })).toBeGreaterThan(0);
    const binaryMs = performance.now() - started;
    // Against the plugin as Node runs it from the npm package (this repository's plugin/index.js).
    const nodeStarted = performance.now();
    await firstPort(process.execPath, [join(root, "plugin/index.js")], process.env);
    console.info(
      `release: start to port: plugin binary ${Math.round(binaryMs)} ms, Node-run plugin ${Math.round(performance.now() - nodeStarted)} ms`,
    );
  });

  it("Go, with no node on PATH: go get the SDK from the release's module proxy, build; up, a preview with no API call, refresh, a replace, destroy", async () => {
    const dir = folder("go");
    const env = withoutNode();
    const usualProxy = (await run("go", ["env", "GOPROXY"], dir, process.env)).trim();
    const sharedCache = (await run("go", ["env", "GOMODCACHE"], dir, process.env)).trim();
    const goEnv: NodeJS.ProcessEnv = {
      // A module cache of its own: every release is v<package.json's version>, and a cache shared with an
      // earlier build of that version would hand over its copy of the SDK, not this release's. The
      // shared cache's downloads stand in as a proxy for the SDK's dependencies, with no network.
      GOMODCACHE: folder("go-module-cache"),
      GOPROXY: `file://${join(releaseDir, manifest.go.proxy)},file://${join(sharedCache, "cache/download")},${usualProxy}`,
      GOFLAGS: "-mod=mod -modcacherw",
      GONOSUMDB: manifest.go.module,
      GONOPROXY: "none",
    };
    const shell = { ...process.env, ...goEnv, PATH: env.PATH };
    writeFileSync(join(dir, "go.mod"), "module example.com/infra\n\ngo 1.25\n");
    cpSync(join(__dirname, "go-program/main.go"), join(dir, "main.go"));
    // The program itself refuses to run where node can be found.
    writeFileSync(
      join(dir, "no_node.go"),
      'package main\n\nimport "os/exec"\n\nfunc init() {\n\tif path, err := exec.LookPath("node"); err == nil {\n\t\tpanic("node is on PATH: " + path)\n\t}\n}\n',
    );
    await run(
      "go",
      [
        "get",
        `${manifest.go.module}@${manifest.go.version}`,
        `github.com/pulumi/pulumi/sdk/v3@${pinnedPulumiVersion()}`,
      ],
      dir,
      shell,
    );
    await run("go", ["mod", "tidy"], dir, shell);
    expect(readFileSync(join(dir, "go.mod"), "utf8")).toContain(
      `${manifest.go.module} ${manifest.go.version}`,
    );
    writeFileSync(join(dir, "Pulumi.yaml"), "name: service-release-go\nruntime: go\n");
    const stage = stages.current;
    const project = await stackIn(stage, dir, { ...env, ...goEnv });
    await project.run(["up", "--yes"]);
    await lifecycle(stage, project, 1, (p) => p.config("channel", "orders-v2"));
    expectNoSecretIn([project.checkpointFile("service-release-go", "dev")], stage);
  });
});

/** Asks pip for its default index, the one a user's `pip install` reads (pulumi comes from there). */
const PIP_DEFAULT_INDEX = "from pip._internal.models.index import PyPI; print(PyPI.simple_url)";

/** How long the plugin binary may take to print its port. */
const PLUGIN_START_MS = 20_000;

/** Starts a plugin (`executable` with `args`), waits for the port it prints, and stops it. */
async function firstPort(
  executable: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  // The address of an engine that is not there: the plugin serves until it is stopped all the same.
  const child = spawn(executable, [...args, "127.0.0.1:1"], { env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    return await portPrinted(child, executable, PLUGIN_START_MS);
  } finally {
    child.kill();
  }
}
