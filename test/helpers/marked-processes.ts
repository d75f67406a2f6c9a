/**
 * Processes a test started, found again by a mark in their environment: a test puts
 * SERVICE_TEST_PROCESS_MARK=<its own value> in the environment of what it spawns, every descendant
 * inherits it (the engine passes its environment to its language hosts and plugins), and once the test is
 * done no process with that mark may remain. Read from Linux's /proc; elsewhere nothing is found.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** The environment variable that carries the mark. */
export const PROCESS_MARK = "SERVICE_TEST_PROCESS_MARK";

/** A process that carries a mark. */
export interface MarkedProcess {
  readonly pid: number;
  /** Its command line, as `ps` shows it. */
  readonly command: string;
}

/** A mark of its own for one test file or one test. */
export function newProcessMark(): string {
  return `${process.pid}-${randomUUID()}`;
}

/** The running processes whose environment carries `mark` (zombies, which have ended, are left out). */
export function processesMarked(mark: string): MarkedProcess[] {
  const entry = `${PROCESS_MARK}=${mark}`;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: MarkedProcess[] = [];
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(entry)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: Number(pid), command });
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found;
}

/**
 * Looks for marked processes until none remains or `withinMs` has passed (a process whose parent just
 * ended takes a moment to notice), and returns those still there then.
 */
export async function survivorsOf(mark: string, withinMs: number): Promise<MarkedProcess[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const found = processesMarked(mark);
    if (found.length === 0 || performance.now() >= deadline) return found;
    await sleep(100);
  }
}

/** A line per survivor, for a failure message. */
export function describeSurvivors(survivors: readonly MarkedProcess[]): string {
  return survivors.map((p) => `  pid ${p.pid}: ${p.command}`).join("\n");
}

/** Ends survivors, so that one failed test leaves nothing running behind it either. */
export function killAll(survivors: readonly MarkedProcess[]): void {
  for (const { pid } of survivors) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}
