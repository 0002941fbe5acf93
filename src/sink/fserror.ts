// A file that cannot be written or read (a full disk, a read-only place, no permission) is
// not a bug: one line that names the file and the reason, exit 2 (see the README's
// Decisions), never "internal error".
import { UsageError } from '../core/errors.js';
import { fsReason } from '../core/fsreason.js';
import { type Said, say } from '../core/redact.js';

export { fsReason, isFsError } from '../core/fsreason.js';

/** `cannot write WHAT: reason; hint` as a usage error (exit 2). */
export function fileError(what: Said | string, err: unknown, hint: Said): UsageError {
  return new UsageError(say`cannot write ${what}: ${fsReason(err)}`, hint, { cause: err });
}
