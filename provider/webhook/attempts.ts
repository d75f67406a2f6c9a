import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { engineIsGone } from "../context/engine-cancel";
import type { CreateKey } from "./create-plan";

/**
 * Creates that a provider process sent and never saw through, kept on disk beside Pulumi's own files.
 *
 * Why: a second Ctrl-C (or a killed CI job) ends `pulumi up` while a create is in flight. The engine
 * records only a pending operation, and the next `pulumi up` asks the provider to create the resource
 * again, with nothing that says it is a retry. The first create may have landed; creating again would
 * leave a webhook that no state knows of, delivering events and holding one of the organization's ten
 * slots. So each create is noted here before it is sent and forgotten once its outcome is known (recorded
 * in state either way); a note left by a process that is gone means the next create of the same
 * configuration first looks for the webhook that attempt may have made.
 *
 * The notes live under $PULUMI_HOME (default ~/.pulumi), so they help a rerun on the same machine; a
 * rerun elsewhere finds none and behaves as before.
 */

/** A note older than this is taken as settled some other way (a person cleaned up), and dropped. */
const NOTE_TTL_MS = 24 * 60 * 60 * 1000;

export interface AttemptNote {
  /** When the create was sent, on the service's clock (epoch ms). */
  readonly since: number;
  /** The provider process that sent it. */
  readonly pid: number;
}

function notesDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "service-pulumi", "create-attempts");
}

/** One file per organization's credentials and configuration; it names neither (a hash does). */
function noteFile(key: CreateKey): string {
  const name = createHash("sha256").update(key.credentials).update(key.identity).digest("hex");
  return join(notesDir(), `${name}.json`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The note of an earlier create of this configuration whose process ended before it knew the outcome.
 * A note of a process still running is another run's create in flight, not an interrupted one.
 */
export function interruptedAttempt(key: CreateKey, now: number): AttemptNote | undefined {
  let note: AttemptNote;
  try {
    note = JSON.parse(readFileSync(noteFile(key), "utf8")) as AttemptNote;
  } catch {
    return undefined;
  }
  if (now - note.since > NOTE_TTL_MS) {
    forgetAttempt(key);
    return undefined;
  }
  return note.pid !== process.pid && !isRunning(note.pid) ? note : undefined;
}

/** Notes a create about to be sent; an earlier interrupted attempt's time is kept, being the earliest. */
export function noteAttempt(key: CreateKey, since: number): void {
  try {
    mkdirSync(notesDir(), { recursive: true, mode: 0o700 });
    writeFileSync(noteFile(key), JSON.stringify({ since, pid: process.pid } satisfies AttemptNote));
  } catch {
    // A read-only home costs only this protection, never the create.
  }
}

/** Forgets the note once the outcome is known (created, refused, or kept pending in state). */
export function forgetAttempt(key: CreateKey): void {
  // With the engine gone, the outcome never reaches state: the next run must find the note and reconcile.
  if (engineIsGone()) return;
  rmSync(noteFile(key), { force: true });
}
