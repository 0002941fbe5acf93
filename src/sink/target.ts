// Where -o writes: the file a path really names, and whether two paths are one file. Checked
// while a command's options are read, before anything is asked of a server; kept apart from
// the atomic writer (src/sink/atomic.ts) so that reading options loads no more than this.
import { lstatSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';

/**
 * The file a path really names: symlinks followed to their target (a dangling one too, so
 * that the file is created where it points), the folder made canonical. A folder or a
 * device is refused here, before anything is exported: the rename at the end would fail
 * on a folder, and replace a device node with a file.
 */
export function resolveTarget(path: string, flag = '-o'): string {
  let target = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let st: Stats;
    try {
      st = lstatSync(target);
    } catch {
      break; // not there yet: created at the end
    }
    if (st.isSymbolicLink()) {
      target = resolve(dirname(target), readlinkSync(target));
      continue;
    }
    if (st.isDirectory())
      throw new UsageError(
        say`${own(flag)} ${path} is a folder`,
        say`give a file name, e.g. ${own(flag)} ${join(path, 'sales.csv')}`,
      );
    if (!st.isFile())
      throw new UsageError(
        say`${own(flag)} ${path} is a device or another special file, not a regular file`,
        flag === '-o' ? say`leave -o out to write to standard output` : say`give a regular file`,
      );
    break;
  }
  try {
    return join(realpathSync(dirname(target)), basename(target));
  } catch {
    return target; // the folder does not exist: opening the file says so
  }
}

/** Whether two resolved paths name one file (the same path, or hard links to one inode). */
export function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
