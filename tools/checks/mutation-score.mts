/**
 * `npm run mutation:score`: the mutation score of the client library (contract/, provider/client and
 * provider/receiver), per file and in all, read from the report of the last `npm run mutation`. The goal
 * is 90 % in all and 80 % in every file; the exit code is 1 when either is missed, and the files under
 * 80 % are listed with their undetected mutants (`--survivors` lists them for every file).
 *
 * Score = (killed + timed out) / (all − compile errors − runtime errors − ignored), as Stryker counts it.
 */
import { readFileSync } from "node:fs";

const REPORT = "node_modules/.cache/stryker/mutation.json";
const DIRECTORIES = ["contract/", "provider/client/", "provider/receiver/"];
const GOAL_TOTAL = 90;
const GOAL_FILE = 80;

interface Mutant {
  readonly status: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
}
interface Report {
  readonly files: Record<string, { readonly source: string; readonly mutants: readonly Mutant[] }>;
}

const UNDETECTED = new Set(["Survived", "NoCoverage"]);
const NOT_COUNTED = new Set(["CompileError", "RuntimeError", "Ignored"]);
const DETECTED = new Set(["Killed", "Timeout"]);

const showAll = process.argv.includes("--survivors");
const report = JSON.parse(readFileSync(REPORT, "utf8")) as Report;

let detected = 0;
let counted = 0;
const rows: { file: string; score: number; detected: number; counted: number; undetected: number }[] = [];
const files = Object.entries(report.files).filter(([file]) => DIRECTORIES.some((d) => file.startsWith(d)));
for (const [file, { source, mutants }] of files) {
  const fileCounted = mutants.filter((m) => !NOT_COUNTED.has(m.status)).length;
  const fileDetected = mutants.filter((m) => DETECTED.has(m.status)).length;
  const score = fileCounted === 0 ? 100 : (100 * fileDetected) / fileCounted;
  detected += fileDetected;
  counted += fileCounted;
  rows.push({
    file,
    score,
    detected: fileDetected,
    counted: fileCounted,
    undetected: fileCounted - fileDetected,
  });
  if (!showAll && score >= GOAL_FILE) continue;
  const lines = source.split("\n");
  for (const m of mutants.filter((m) => UNDETECTED.has(m.status))) {
    const { line, column } = m.location.start;
    console.log(
      `${file}:${line}:${column} ${m.status} ${m.mutatorName} → ${JSON.stringify(m.replacement ?? "")}`,
    );
    console.log(`    ${lines[line - 1]?.trim()}`);
  }
}

rows.sort((a, b) => a.score - b.score);
for (const r of rows) {
  console.log(`${r.score.toFixed(1).padStart(6)} %  ${`${r.detected}/${r.counted}`.padEnd(9)} ${r.file}`);
}
const total = counted === 0 ? 100 : (100 * detected) / counted;
const under = rows.filter((r) => r.score < GOAL_FILE);
console.log(
  `total ${total.toFixed(2)} % (${detected} of ${counted} detected; goal ${GOAL_TOTAL} %), ` +
    `${under.length} file(s) under ${GOAL_FILE} %`,
);
if (total < GOAL_TOTAL || under.length > 0) process.exitCode = 1;
