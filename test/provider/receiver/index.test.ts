/**
 * The receiver's entry point, `@service/pulumi/receiver` (provider/receiver/index.ts), as built: loaded in
 * a Lambda function it brings neither the API client, undici nor @pulumi/pulumi, and its declarations
 * compile for a consumer with Node's types alone, without reaching zod.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const root = join(__dirname, "../../..");

describe("@service/pulumi/receiver as a Lambda function loads it", () => {
  it("does not load the API client, undici or @pulumi/pulumi", () => {
    const script = `
      require(${JSON.stringify(join(root, "dist/provider/receiver/index.js"))});
      process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
    const loaded: string[] = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
    expect(loaded.some((path) => path.includes("/dist/provider/receiver/"))).toBe(true);
    const heavy = loaded.filter((path) =>
      /\/node_modules\/(@pulumi\/|undici\/)|\/dist\/provider\/client\//.test(path),
    );
    expect(heavy).toEqual([]);
  });
});

describe("the receiver's published declarations", () => {
  const consumer = mkdtempSync(join(tmpdir(), "receiver-types-"));
  afterAll(() => rmSync(consumer, { recursive: true, force: true }));

  it("compile without skipLibCheck for a consumer without @types/aws-lambda, and never reach zod", () => {
    // The consumer has this package and Node's types, nothing else.
    mkdirSync(join(consumer, "node_modules/@service"), { recursive: true });
    mkdirSync(join(consumer, "node_modules/@types"), { recursive: true });
    symlinkSync(root, join(consumer, "node_modules/@service/pulumi"), "dir");
    symlinkSync(join(root, "node_modules/@types/node"), join(consumer, "node_modules/@types/node"), "dir");
    const file = join(consumer, "handler.ts");
    writeFileSync(
      file,
      `import { createServer } from "node:http";
import {
  createLambdaHandler, createNodeHandler, isAuthentication, parseDelivery, type Snapshot,
} from "@service/pulumi/receiver";

const handleItem = (item: Snapshot<"1.4">) => (isAuthentication(item) ? item.timestamp.epoch : item.activity.mode);
export const handler = createLambdaHandler({ secrets: ["s"], store: new Map(), apiVersion: "1.4", handleItem });
createServer(createNodeHandler({ secrets: ["s"], store: new Map(), apiVersion: "1.4", handleItem }));
export const channel = parseDelivery("{}", undefined, ["s"]).channel;
`,
    );
    const program = ts.createProgram([file], {
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      // No DOM: type-checking lib.dom.d.ts would triple the time, and a Lambda function has none.
      lib: ["lib.es2022.d.ts"],
      types: ["node"],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
    const files = program.getSourceFiles().map((f) => f.fileName);
    expect(files.some((f) => f.endsWith("dist/provider/receiver/index.d.ts"))).toBe(true);
    expect(files.filter((f) => /\/(zod|@types\/aws-lambda|@pulumi)\//.test(f))).toEqual([]);
  });
});
