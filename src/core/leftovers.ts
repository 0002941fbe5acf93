// What writes that never finished leave behind (a SIGKILL, a power cut, a full disk): whether
// the process that wrote a file still runs, and the sweep of a folder's leftovers. The export
// sink (sink/atomic.ts) and the profile store (store/profiles.ts) each say which are theirs.
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Whether a process of this machine is running (EPERM: it is, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the file at `path` (a link itself, not followed) has been untouched for `ms`. */
export function untouchedFor(path: string, ms: number): boolean {
  return Date.now() - lstatSync(path).mtimeMs > ms;
}

/**
 * Removes the files of `dir` that `stale` finds left behind (it may throw: the file is then
 * let be). A folder that cannot be read, a file gone meanwhile or not ours to remove: nothing.
 */
export function sweepDir(dir: string, stale: (name: string, path: string) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (stale(name, path)) unlinkSync(path);
    } catch {
      /* gone meanwhile, or not ours to remove */
    }
  }
}
