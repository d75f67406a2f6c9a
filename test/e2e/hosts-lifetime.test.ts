/**
 * The language hosts this repository builds for Python and Go (tools/engine/hosts, installed by `npm run
 * engine`) end once the engine that started them is gone, as the Node.js stand-in does
 * (test/tools/engine/pulumi-language-nodejs.test.ts). Each is started the way the engine starts it, then
 * its engine is killed with SIGKILL.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { builtPulumi } from "../../tools/engine/pulumi-engine.mts";
import { describeUnderEngine } from "../helpers/engine";
import { underFakeEngine } from "../helpers/fake-engine";
import { describeSurvivors, processesMarked, survivorsOf } from "../helpers/marked-processes";

/** How long a host may take to notice that its engine is gone and end (its calls get 5 s to finish). */
const END_BOUND_MS = 15_000;

describeUnderEngine(
  "the language hosts built from tools/engine/hosts, their engine killed with SIGKILL",
  () => {
    // Only `npm run engine` installs these hosts; a CLI found on PATH comes with its own.
    const folder = builtPulumi() && dirname(builtPulumi()!);
    for (const host of ["pulumi-language-python", "pulumi-language-go"]) {
      const binary = folder && join(folder, host);
      it.skipIf(!binary || !existsSync(binary))(
        `${host} ends, and nothing of it remains`,
        async () => {
          const { engine, mark, pid, first } = await underFakeEngine([binary!, "127.0.0.1:1"], folder!);
          expect(first).toMatch(/^\d+$/);
          expect(processesMarked(mark).map((p) => p.pid)).toContain(pid);
          engine.kill("SIGKILL");
          const survivors = await survivorsOf(mark, END_BOUND_MS);
          expect(survivors, describeSurvivors(survivors)).toEqual([]);
        },
        END_BOUND_MS + 10_000,
      );
    }
  },
);
