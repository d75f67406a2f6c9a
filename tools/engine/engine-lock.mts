/**
 * The lock of one engine folder: one `npm run engine` at a time builds or refreshes it; another one waits
 * for it, then finds its result. A lock whose process is gone (a build killed with SIGKILL, a machine that
 * rebooted) is taken over.
 *
 * The lock is a file beside the folder (`<folder>.lock`) holding its owner's pid, host and start time. It
 * is written whole under a temporary name and linked into place, so that a reader never sees it half
 * written, and `link` fails when a lock already exists, so that two runs never both hold it.
 */
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

/** Who holds a lock, as its file says. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** When it took the lock (ISO 8601). */
  readonly since: string;
}

/** How acquireLock tells its caller what it meets on the way. */
export interface LockEvents {
  /** Called about every `reportEveryMs` while another live run holds the lock. */
  waiting(owner: LockOwner, waitedMs: number): void;
  /** Called when the lock of a process that no longer exists is taken over. */
  tookOver(owner: LockOwner): void;
}

export interface LockOptions extends LockEvents {
  /** How often to look at the lock again while waiting. */
  readonly pollMs?: number;
  /** How often to call `waiting`. */
  readonly reportEveryMs: number;
}

/** The lock file of an engine folder. */
export function lockPathOf(folder: string): string {
  return `${folder}.lock`;
}

/** Whether a process of this machine with that pid exists (EPERM: it exists, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lock: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lock, "utf8")) as Partial<LockOwner>;
    if (typeof owner.pid === "number" && typeof owner.host === "string" && typeof owner.since === "string") {
      return owner as LockOwner;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  }
  // Unreadable or not ours: no live owner can be named, so it is stale.
  return { pid: 0, host: hostname(), since: "" };
}

/** A lock is stale when its owner ran on this machine and is gone. Another machine's owner is trusted. */
function isStale(owner: LockOwner): boolean {
  return owner.host === hostname() && (owner.pid <= 0 || !isAlive(owner.pid));
}

const sameOwner = (a: LockOwner | undefined, b: LockOwner) =>
  a !== undefined && a.pid === b.pid && a.host === b.host && a.since === b.since;

/**
 * Removes a stale lock, unless another run replaced it meanwhile: it is first renamed to a name of this
 * process (only one run can win that rename), then checked; a live lock caught that way is put back.
 * True when the stale lock was removed here.
 */
function removeStale(lock: string, stale: LockOwner): boolean {
  const aside = `${lock}.stale-${process.pid}`;
  try {
    renameSync(lock, aside);
  } catch {
    return false; // another run took it over first
  }
  const removed = sameOwner(readOwner(aside), stale);
  if (!removed) {
    try {
      linkSync(aside, lock);
    } catch {
      // A third run holds the lock now; the one caught here still runs, and both build into
      // temporary names that are renamed into place, so the folder stays whole.
    }
  }
  unlinkSync(aside);
  return removed;
}

/** Tries once to create the lock; true when this process holds it now. */
function tryCreate(lock: string, owner: LockOwner): boolean {
  const draft = `${lock}.${process.pid}`;
  writeFileSync(draft, `${JSON.stringify(owner)}\n`);
  try {
    linkSync(draft, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Takes the lock of `folder`, waiting as long as a live run holds it, and returns the function that
 * releases it. The lock is also released when the process exits.
 */
export async function acquireLock(folder: string, options: LockOptions): Promise<() => void> {
  const lock = lockPathOf(folder);
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const pollMs = options.pollMs ?? 200;
  const started = performance.now();
  let reported = Number.NEGATIVE_INFINITY;
  while (!tryCreate(lock, owner)) {
    const holder = readOwner(lock);
    if (holder === undefined) continue; // released just now: try again at once
    if (isStale(holder)) {
      if (removeStale(lock, holder)) options.tookOver(holder);
      continue;
    }
    const now = performance.now();
    if (now - reported >= options.reportEveryMs) {
      reported = now;
      options.waiting(holder, now - started);
    }
    await sleep(pollMs);
  }
  const release = () => {
    process.off("exit", release);
    if (sameOwner(readOwner(lock), owner)) unlinkSync(lock);
  };
  process.on("exit", release);
  return release;
}
