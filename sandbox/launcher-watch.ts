/**
 * The sandbox bin ends with the process that started it. `npx service-sandbox` (and `npm exec`, `npm run`)
 * runs a bin through a shell: npm → `sh -c service-sandbox` → node. Killing npm with SIGTERM ends the
 * shell and reparents node to init; killing it with SIGKILL leaves the shell waiting on node, so node's
 * parent never changes. Either way node went on listening on the port. So the bin watches its launcher,
 * the first ancestor that is not such a shell, and its own parent, and stops when either is gone.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";

/** How often the bin looks whether its launcher is still there. */
const POLL_MS = 500;
/** The shells npm starts bins and scripts through, with `-c`. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh"]);

/** What this module needs to know of a process: its parent, its command line, and whether it has ended. */
interface ProcessInfo {
  readonly ppid: number;
  readonly argv: readonly string[];
  /** Ended but not yet reaped by its parent (a zombie): gone for this module's purpose. */
  readonly ended: boolean;
}

/** Linux shows processes in /proc; elsewhere (macOS) `ps` does. */
const hasProc = existsSync("/proc/self/stat");

/** A process as /proc or `ps` shows it; undefined once it no longer exists. */
function inspect(pid: number): ProcessInfo | undefined {
  try {
    if (hasProc) {
      // The command name in parentheses may hold spaces and parentheses: the fields follow the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      return { ppid: Number(ppid), argv, ended: state === "Z" || state === "X" };
    }
    const line = execFileSync("ps", ["-o", "ppid=,stat=,args=", "-p", String(pid)], { encoding: "utf8" });
    const [ppid, state, ...argv] = line.trim().split(/\s+/);
    return { ppid: Number(ppid), argv, ended: state?.startsWith("Z") ?? false };
  } catch {
    return undefined;
  }
}

/** Whether a process runs: from /proc (a zombie has ended), else by signal 0 (no process to start per look). */
function isRunning(pid: number): boolean {
  if (hasProc) return inspect(pid)?.ended === false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const isShellWrapper = (info: ProcessInfo) =>
  SHELLS.has(basename(info.argv[0] ?? "").replace(/^-/, "")) && info.argv[1] === "-c";

/** The launcher of this process: its parent, or the parent of the `sh -c` chain it was started through. */
function launcherPid(): number {
  let pid = process.ppid;
  for (let depth = 0; depth < 8; depth++) {
    const info = inspect(pid);
    if (!info || !isShellWrapper(info) || info.ppid <= 1) return pid;
    pid = info.ppid;
  }
  return pid;
}

/**
 * Calls `stop` with the launcher's pid once, when the launcher (launcherPid) has ended or this
 * process's parent has changed. The watch does not keep the process alive by itself.
 */
export function stopWithLauncher(stop: (launcher: number) => void): void {
  const launcher = launcherPid();
  // Started by init, or init itself (a container's first process): nothing to outlive.
  if (launcher <= 1) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent && isRunning(launcher)) return;
    clearInterval(watch);
    stop(launcher);
  }, POLL_MS);
  watch.unref();
}
