/**
 * `npm run sdk`: generates the Python, Go and .NET SDKs of the provider plugin from schema.json, with the
 * real CLI's `pulumi package gen-sdk` and the language hosts that `npm run engine` built, into sdk/<language>.
 * The SDKs are committed, as providers commit theirs, so that a reviewer sees what a schema change does
 * to each language; test/e2e/sdk.test.ts fails when they differ from what this script makes.
 *
 * `--out <folder>` writes them elsewhere (the test uses it); `--language <name>` generates one.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { builtPulumi, hermeticEnvironment } from "../engine/pulumi-engine.mts";

const execFileAsync = promisify(execFile);
const root = join(import.meta.dirname, "../..");
/** The languages generated, in the names `pulumi package gen-sdk --language` takes. */
const SDK_LANGUAGES = ["python", "go", "dotnet"] as const;

function fail(message: string): never {
  process.stderr.write(`npm run sdk: ${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({
  options: { out: { type: "string", default: join(root, "sdk") }, language: { type: "string" } },
});
const languages = values.language ? [values.language] : SDK_LANGUAGES;
const pulumi = builtPulumi();
if (!pulumi) fail("the Pulumi CLI is not built: run `npm run engine` first.");
const schemaPath = join(root, "schema.json");
const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as { version: string; logoUrl?: string };

const home = mkdtempSync(join(tmpdir(), "service-pulumi-sdk-"));
const logo = await serveLogo(schema.logoUrl);
try {
  for (const language of languages) {
    rmSync(join(values.out, language), { recursive: true, force: true });
    const env = { ...hermeticEnvironment(pulumi, home, home), ...logo.environment };
    // Asynchronous, so that this process can answer the logo request while gen-sdk runs.
    const run = await execFileAsync(
      pulumi,
      [
        "package",
        "gen-sdk",
        schemaPath,
        "--language",
        language,
        "--version",
        schema.version,
        "--out",
        values.out,
      ],
      { cwd: root, env, encoding: "utf8" },
    ).catch((error: { stdout?: string; stderr?: string }) => error);
    if ("code" in run) fail(`gen-sdk for ${language} failed:\n${run.stderr}${run.stdout}`);
    process.stderr.write(`${language}: ${join(values.out, language)}\n`);
  }
} finally {
  logo.close();
  rmSync(home, { recursive: true, force: true });
}

/**
 * The .NET generator downloads the package's logo from the schema's logoUrl to embed it in the package.
 * Generation must need no network, so the URL is plain HTTP and answered here, through a proxy on
 * 127.0.0.1 that serves docs/assets/logo.png to that one URL and refuses everything else.
 */
async function serveLogo(logoUrl: string | undefined) {
  if (!logoUrl?.startsWith("http://"))
    fail("schema.json's logoUrl must be a plain http:// URL (see tools/codegen/sdk.mts).");
  const png = readFileSync(join(root, "docs/assets/logo.png"));
  const server = createServer((request, response) => {
    if (request.url === logoUrl) {
      response.writeHead(200, { "content-type": "image/png" }).end(png);
    } else {
      response.writeHead(403).end();
    }
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const address = server.address();
  if (address === null || typeof address === "string") fail("the logo proxy has no port.");
  const proxy = `http://127.0.0.1:${address.port}`;
  return {
    environment: { HTTP_PROXY: proxy, http_proxy: proxy, NO_PROXY: "", no_proxy: "" },
    close: () => server.close(),
  };
}
