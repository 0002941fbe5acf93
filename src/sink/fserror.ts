// A file that cannot be written or read (a full disk, a read-only place, no permission) is
// not a bug: one line that names the file and the reason, exit 2 (docs/decisions.md), never "internal error".

import { dirname } from 'node:path';
import { UsageError } from '../core/errors.js';
import { fsReason } from '../core/fsreason.js';
import { type Said, say } from '../core/redact.js';

export { fsReason, isFsError } from '../core/fsreason.js';

/** `cannot write WHAT: reason; hint` as a usage error (exit 2). */
export function fileError(what: Said | string, err: unknown, hint: Said): UsageError {
  return new UsageError(say`cannot write ${what}: ${fsReason(err)}`, hint, { cause: err });
}

/**
 * `cannot write FILE: the folder DIR does not exist; create it (mkdir -p DIR) or …`: the folder
 * is not made for the user (a typo in a path would scatter files), but the fix is said.
 */
export function writeError(path: string, err: unknown, hint: Said): UsageError {
  if ((err as NodeJS.ErrnoException)?.code !== 'ENOENT') return fileError(path, err, hint);
  const folder = dirname(path);
  return new UsageError(
    say`cannot write ${path}: the folder ${folder} does not exist`,
    say`create it (mkdir -p ${folder}) or ${hint}`,
    { cause: err },
  );
}
