/**
 * How `npm run engine` puts a file into an engine folder that a `pulumi` run may be using at that very
 * moment: a file that is already there with the same bytes is left alone (same inode, same mtime); a new
 * or changed one is written beside it under a temporary name and renamed over it, so that a reader finds
 * either the old file or the new one, never none and never half of one.
 */
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { isAlive } from "./engine-lock.mts";

/** Every file `npm run engine` installs is run by the engine: owner, group and others may run it. */
const EXECUTABLE = 0o755;
/** A file that is only read (the stamp of the language hosts' sources). */
const PLAIN = 0o644;

/** The marker of temporary names: `.<name>.partial-<pid>`, so that a killed run's leftovers are found. */
const PARTIAL = /^\..+\.partial-(\d+)$/;

/** A temporary name beside `to`, of this process. */
export function partialPathOf(to: string): string {
  return join(dirname(to), `.${basename(to)}.partial-${process.pid}`);
}

/** Whether two files hold the same bytes, read a chunk at a time (the CLI is over 100 MB). */
function sameBytes(a: string, b: string): boolean {
  const [fa, fb] = [openSync(a, "r"), openSync(b, "r")];
  try {
    if (fstatSync(fa).size !== fstatSync(fb).size) return false;
    const [ba, bb] = [Buffer.alloc(1 << 20), Buffer.alloc(1 << 20)];
    for (;;) {
      const read = readSync(fa, ba, 0, ba.length, null);
      if (read === 0) return true;
      if (readSync(fb, bb, 0, read, null) !== read || !ba.subarray(0, read).equals(bb.subarray(0, read))) {
        return false;
      }
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}

/** What placing a file did. */
export type Placed = "unchanged" | "written";

/** Leaves `to` as it is, but for its mode when that differs (which touches no byte and no inode). */
function keep(to: string, mode: number): Placed {
  if ((statSync(to).mode & 0o777) !== mode) chmodSync(to, mode);
  return "unchanged";
}

/** Gives `partial` its mode and renames it over `to`, in one step for any reader of `to`. */
function replace(partial: string, to: string, mode: number): Placed {
  chmodSync(partial, mode);
  renameSync(partial, to);
  return "written";
}

/**
 * Moves the file just made at `partial` (beside `to`) to `to`, unless `to` already holds the same bytes,
 * in which case `partial` is removed and `to` is kept. Either way `to` ends with `mode`.
 */
export function placeFile(partial: string, to: string, mode = EXECUTABLE): Placed {
  if (existsSync(to) && sameBytes(partial, to)) {
    rmSync(partial, { force: true });
    return keep(to, mode);
  }
  return replace(partial, to, mode);
}

/**
 * Installs a copy of `from` at `to`, executable (the files copied out of Go's module cache are read-only
 * and lose their run bit), unless `to` holds the same bytes already: then nothing is written at all.
 */
export function installCopy(from: string, to: string): Placed {
  if (existsSync(to) && sameBytes(from, to)) return keep(to, EXECUTABLE);
  const partial = partialPathOf(to);
  copyFileSync(from, partial);
  return replace(partial, to, EXECUTABLE);
}

/** Installs `text` at `to` (not executable), as installCopy does. */
export function installText(text: string, to: string): Placed {
  if (existsSync(to) && readFileSync(to, "utf8") === text) return keep(to, PLAIN);
  const partial = partialPathOf(to);
  writeFileSync(partial, text);
  return replace(partial, to, PLAIN);
}

/**
 * Removes from `folder` the temporary files and folders of runs that are gone (a build killed midway).
 * Called under the folder's lock, so no live run of this machine is writing one.
 */
export function removeLeftovers(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(folder)) {
    const pid = PARTIAL.exec(name)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) {
      rmSync(join(folder, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}
