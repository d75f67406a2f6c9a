/**
 * Turns off zod's compiled fast path for the process. zod compiles a parser for each object schema
 * (with `new Function`) the first time it parses with it, which pays once a schema parses many times,
 * as in the sandbox. A provider process (the dynamic-provider host, the provider plugin) lives for one
 * Pulumi command and parses each schema a few times: there compiling cost more than it saved, about
 * 5 to 15 ms of each command (docs/performance.md). The results are the same either way.
 *
 * zod keeps its settings on `globalThis.__zod_globalConfig`, which every copy of zod in the process reads
 * (`z.config()` writes the same object). Setting it there, rather than through `z.config`, keeps zod
 * itself from loading before the first call that needs it. test/provider/runtime-contract.test.ts reads
 * the setting back through zod's own `config()`, so a zod that moved it fails there.
 *
 * Imported by the provider processes' entries, for its side effect only.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;
