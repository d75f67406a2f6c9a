/**
 * `npm run bench:program`: what a program spends constructing ten webhooks, the part of `pulumi preview`
 * and `up` that runs in the program's process before the engine hears of them, this package's Webhook
 * beside the peer's `pulumi.dynamic.Resource` (webhooks-program/peer-provider.js). Each round starts a
 * fresh process per variant (program-construction-child.cjs), as each command does, under the stack
 * formatter Pulumi's program runner installs and Pulumi's mocks: the package's load, its first Webhook
 * (which reads the bundle's source map, for the resource's source position) and each further one. Medians
 * of `--rounds` (default 9), the variants alternating which goes first.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median, rotated } from "./engine-stage.mts";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "9" }, webhooks: { type: "string", default: "10" } },
});
const CHILD = join(import.meta.dirname, "program-construction-child.cjs");
const VARIANTS = ["package", "peer"] as const;
type Name = (typeof VARIANTS)[number];
interface Run {
  readonly loadMs: number;
  readonly firstMs: number;
  readonly restMs: number[];
}

const names = [...VARIANTS];
const runs = new Map<Name, Run[]>(names.map((name) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const name of rotated(names, round)) {
    const line = execFileSync(process.execPath, [CHILD, name, values.webhooks], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    runs.get(name)!.push(JSON.parse(line) as Run);
  }
}

const f = (n: number) => n.toFixed(1).padStart(8);
process.stdout.write(
  `${values.webhooks} webhooks, medians of ${values.rounds} processes, ms\n` +
    `${"variant".padEnd(18)}${"load".padStart(8)}${"first".padStart(8)}${"each".padStart(8)}${"all".padStart(8)}\n`,
);
for (const name of names) {
  const r = runs.get(name)!;
  const each = median(r.flatMap((x) => x.restMs));
  const all = median(r.map((x) => x.loadMs + x.firstMs + x.restMs.reduce((a, b) => a + b, 0)));
  process.stdout.write(
    `${name.padEnd(18)}${f(median(r.map((x) => x.loadMs)))}${f(median(r.map((x) => x.firstMs)))}${f(each)}${f(all)}\n`,
  );
}
