/**
 * The release workflow's publishing steps (tools/release/publish.mts, `npm run release:publish`, which
 * .github/workflows/release.yml runs on a version tag), run by `npm run test:release` on the release it
 * has just built, against registries on 127.0.0.1, then installed from as users install:
 * - npm: published to Verdaccio (without --provenance, which needs a CI's OIDC token), then `npm install`;
 * - PyPI: `twine upload` to pypiserver, then `pip install`;
 * - the GitHub release: a dry run that checks the plugin assets the engine asks for and prints the
 *   `gh release create`; its assets, copied, serve `pulumi plugin install` for the SDKs' server;
 * - the Go tag: a dry run that checks the module at the commit against the proxy folder and prints the
 *   git commands;
 * - NuGet and Maven: said to be impossible here, with the reason.
 * No token given to the steps appears in anything they print.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
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
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Manifest, readManifest } from "../../tools/release/manifest.mts";
import { describeUnderEngine, pulumiProject } from "../helpers/engine";
import { runToEnd, startPypiServer, startStaticServer, startVerdaccio } from "../helpers/release-registries";

const root = join(__dirname, "../..");
const releaseDir = join(root, "dist/release");

/** The tokens the steps find in their environment, as the workflow's secrets: none may be printed. */
const TOKENS = {
  NODE_AUTH_TOKEN: `npm-token-${randomUUID()}`,
  TWINE_PASSWORD: `pypi-password-${randomUUID()}`,
  GH_TOKEN: `gh-token-${randomUUID()}`,
  NUGET_API_KEY: `nuget-key-${randomUUID()}`,
};

describeUnderEngine(
  "the release workflow's publishing, against registries on 127.0.0.1",
  { tools: ["python3", "git"] },
  () => {
    let manifest: Manifest;
    let work: string;

    beforeAll(() => {
      if (!existsSync(releaseDir))
        throw new Error(
          `${releaseDir} does not exist: run \`npm run release\` first (npm run test:release does).`,
        );
      manifest = readManifest(releaseDir);
      work = mkdtempSync(join(tmpdir(), "service-pulumi-publish-"));
    });
    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    const folder = (name: string) => {
      const dir = join(work, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    };

    /** Runs one target as the workflow does, with the tokens in its environment; returns what it printed. */
    async function publish(args: readonly string[]): Promise<string> {
      const { stdout, stderr } = await runToEnd(
        "npm",
        ["run", "--silent", "release:publish", "--", ...args],
        root,
        { ...process.env, ...TOKENS, TWINE_USERNAME: "release-test" },
      );
      const printed = stdout + stderr;
      for (const [name, token] of Object.entries(TOKENS))
        expect(printed, `${name} was printed`).not.toContain(token);
      return printed;
    }

    it("npm: the tarball published to a local registry as the workflow publishes it but for --provenance, and installed from it, the release's very file", async () => {
      const registry = await startVerdaccio();
      try {
        const printed = await publish(["npm", "--registry", registry.url]);
        expect(printed).toContain(
          "without --provenance: provenance is signed with the OIDC token of a CI run",
        );
        const dir = folder("npm");
        writeFileSync(join(dir, ".npmrc"), `@service:registry=${registry.url}/\n`);
        writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "infra", private: true }));
        // The peer @pulumi/pulumi comes from the public registry, not from this release: left out.
        await runToEnd(
          "npm",
          [
            "install",
            `${manifest.npm.name}@${manifest.npm.version}`,
            "--omit=peer",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
          ],
          dir,
          process.env,
        );
        const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as {
          packages: Record<string, { version: string; integrity: string }>;
        };
        const integrity = `sha512-${createHash("sha512")
          .update(readFileSync(join(releaseDir, manifest.npm.file)))
          .digest("base64")}`;
        expect(lock.packages[`node_modules/${manifest.npm.name}`]).toMatchObject({
          version: manifest.version,
          integrity,
        });
        const served = await runToEnd(
          "npm",
          [
            "view",
            `${manifest.npm.name}@${manifest.npm.version}`,
            "dist",
            "--json",
            "--registry",
            registry.url,
          ],
          dir,
          process.env,
        );
        expect(JSON.parse(served.stdout)).toMatchObject({
          integrity,
          tarball: expect.stringMatching(new RegExp(`^${registry.url}/`)),
        });
      } finally {
        await registry.close();
      }
    });

    it("PyPI: twine uploads the wheel and the sdist to a local index, and pip installs the release's wheel from it", async () => {
      const index = await startPypiServer();
      try {
        const printed = await publish(["pypi", "--registry", index.uploadUrl]);
        expect(printed).toContain("with the credentials in TWINE_USERNAME and TWINE_PASSWORD");
        const dir = folder("pypi");
        // A user's shell: this machine's wheel folder is not theirs.
        const shell: NodeJS.ProcessEnv = { ...process.env };
        delete shell.PIP_FIND_LINKS;
        await runToEnd("python3", ["-m", "venv", "venv"], dir, shell);
        // The dependency pulumi comes from PyPI, not from this release: left out.
        await runToEnd(
          "venv/bin/pip",
          [
            "install",
            "--quiet",
            "--no-deps",
            "--index-url",
            index.simpleUrl,
            "--report",
            "report.json",
            `${manifest.python.distribution}==${manifest.version}`,
          ],
          dir,
          shell,
        );
        const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as {
          install: { download_info: { url: string; archive_info: { hashes: { sha256: string } } } }[];
        };
        const listing = await fetch(`${index.simpleUrl}${manifest.python.distribution}/`).then((r) =>
          r.text(),
        );
        for (const file of [manifest.python.wheel, manifest.python.sdist])
          expect(listing).toContain(`>${file}</a>`);
        const wheel = manifest.artifacts.find((a) => a.file === manifest.python.wheel)!;
        expect(report.install.map((i) => i.download_info)).toEqual([
          {
            url: expect.stringMatching(
              new RegExp(`^${index.simpleUrl.replace(/\/simple\/$/, "")}/.*/${wheel.file}$`),
            ),
            archive_info: expect.objectContaining({ hashes: { sha256: wheel.sha256 } }),
          },
        ]);
        const plugin = await runToEnd(
          "venv/bin/python",
          [
            "-c",
            `from importlib.metadata import distribution; print(distribution("${manifest.python.distribution}").locate_file("${manifest.python.import}/pulumi-plugin.json").read_text())`,
          ],
          dir,
          shell,
        );
        expect(JSON.parse(plugin.stdout)).toMatchObject({
          name: manifest.plugin.name,
          version: manifest.version,
          server: manifest.plugin.server,
        });
      } finally {
        await index.close();
      }
    });

    it("GitHub release, dry run: every plugin asset the engine asks for, by its name, and the gh release create it would run; the engine installs the plugin from those assets for the SDKs' server", async () => {
      const assets = folder("github-release");
      const printed = await publish(["github", "--dry-run", "--copy-to", assets]);
      const tag = `v${manifest.version}`;
      expect(printed).toContain(
        `dry run: would run gh release create ${tag} --repo service-pulumi/service-pulumi --title ${tag}`,
      );
      for (const { file } of manifest.plugin.files)
        expect(printed).toContain(`the engine downloads ${file} from the release ${tag}`);
      for (const { os, arch } of manifest.plugin.unbuilt)
        expect(printed).toContain(`not in this release: the plugin for ${os}-${arch}`);

      const server = await startStaticServer(assets);
      try {
        const escaped = manifest.plugin.server.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const project = pulumiProject({
          at: folder("github-plugin"),
          env: { PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${escaped}=${server.url}` },
        });
        await project.run([
          "plugin",
          "install",
          "resource",
          manifest.plugin.name,
          manifest.version,
          "--server",
          manifest.plugin.server,
        ]);
        expect(manifest.plugin.files.map((f) => `/${f.file}`)).toContain(server.requested.at(-1));
        expect((await project.run(["plugin", "ls"])).output).toMatch(
          new RegExp(`${manifest.plugin.name}\\s+resource\\s+${manifest.version.replaceAll(".", "\\.")}`),
        );
      } finally {
        await server.close();
      }
    });

    it("Go tag, dry run: the module at HEAD is the one in the proxy folder, and the tag sdk/go/v<version> it would push on HEAD", async () => {
      const printed = await publish(["go", "--dry-run"]);
      const head = (await runToEnd("git", ["rev-parse", "HEAD"], root, process.env)).stdout.trim();
      const tag = `sdk/go/v${manifest.version}`;
      expect(manifest.go.tag).toBe(tag);
      expect(printed).toContain(
        `${manifest.go.module}@v${manifest.version}: the proxy folder holds exactly sdk/go at ${head}.`,
      );
      expect(printed).toContain(`dry run: would run git tag ${tag} ${head}\n`);
      expect(printed).toContain(`dry run: would run git push origin ${tag}\n`);
      expect((await runToEnd("git", ["tag", "--list", tag], root, process.env)).stdout).toBe("");
    });

    /**
     * A copy of the release folder, changed by `change`, for a step to refuse; `only` copies just
     * MANIFEST.json and the files it names (the plugin tarballs are large, and the Go step reads none).
     */
    const changedRelease = (name: string, change: (dir: string) => void, only?: readonly string[]) => {
      const dir = folder(name);
      for (const file of only ? ["MANIFEST.json", ...only] : readdirSync(releaseDir))
        cpSync(join(releaseDir, file), join(dir, file), { recursive: true });
      change(dir);
      return dir;
    };

    it("GitHub release, dry run: refuses a release that misses a plugin tarball the engine asks for, or a repository the SDKs do not name", async () => {
      const [missing] = manifest.plugin.files;
      const release = changedRelease("github-missing", (dir) => rmSync(join(dir, missing!.file)));
      await expect(publish(["github", "--dry-run", "--release", release])).rejects.toThrow(
        `the GitHub release would miss what the engine downloads: ${missing!.file} is not in ${release}`,
      );
      await expect(publish(["github", "--dry-run", "--repo", "someone/else"])).rejects.toThrow(
        `the SDKs download the plugin from ${manifest.plugin.server} (service-pulumi/service-pulumi), but this release would go to someone/else`,
      );
    });

    it("Go tag, dry run: refuses a proxy folder whose module is not the commit's, by its go.mod or a file of its zip", async () => {
      const version = `v${manifest.version}`;
      const refusal = `the tag ${manifest.go.tag} would publish another module than the release's proxy folder holds: `;
      const versions = (dir: string) => join(dir, manifest.go.proxy, manifest.go.module, "@v");
      const goMod = changedRelease(
        "go-mod-changed",
        (dir) => {
          const file = join(versions(dir), `${version}.mod`);
          writeFileSync(file, `${readFileSync(file, "utf8")}\nrequire example.com/other v1.0.0\n`);
        },
        [manifest.go.proxy],
      );
      await expect(publish(["go", "--dry-run", "--release", goMod])).rejects.toThrow(
        `${refusal}${version}.mod is not sdk/go/go.mod at`,
      );
      // The zip written anew with one file changed, as a build from an uncommitted folder would hold it.
      const zipChanged = changedRelease(
        "go-zip-changed",
        (dir) => {
          const zip = join(versions(dir), `${version}.zip`);
          const rewrite = `import sys, zipfile
entries = [(i.filename, zipfile.ZipFile(sys.argv[1]).read(i)) for i in zipfile.ZipFile(sys.argv[1]).infolist()]
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as out:
    for name, data in entries:
        out.writestr(name, data + b"// changed\\n" if name.endswith("/service/doc.go") else data)`;
          execFileSync("python3", ["-c", rewrite, zip]);
        },
        [manifest.go.proxy],
      );
      await expect(publish(["go", "--dry-run", "--release", zipChanged])).rejects.toThrow(
        `${refusal}service/doc.go in the zip differs from sdk/go/service/doc.go at`,
      );
    });

    it("refuses an option its target does not take, so that no step publishes where a dry run was asked", async () => {
      // A registry where nothing listens: were the refusal gone, the publish would fail here, not reach npm.
      await expect(publish(["npm", "--dry-run", "--registry", "http://127.0.0.1:9/"])).rejects.toThrow(
        "npm takes --registry, --provenance beside --release, not --dry-run.",
      );
    });

    it("NuGet and Maven: each says why it cannot run here, and what the workflow runs instead", async () => {
      const nuget = await publish(["nuget", "--dry-run"]);
      const dotnet = await runToEnd("dotnet", ["--version"], root, process.env).then(
        () => true,
        () => false,
      );
      expect(nuget).toContain(
        dotnet ? "nuget: dry run: would run dotnet nuget push" : "nuget: cannot run here: no .NET SDK",
      );
      expect(nuget).toContain(`--api-key "$NUGET_API_KEY"`);
      const maven = await publish(["maven"]);
      expect(maven).toContain(
        `maven: cannot run here: no Java SDK in this release (${manifest.maven.reason})`,
      );
    });
  },
);
