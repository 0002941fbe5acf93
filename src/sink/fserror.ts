// A file that cannot be written or read (a full disk, a read-only place, no permission) is
// not a bug: one line that names the file and the reason, exit 2 (see the README's
// Decisions), never "internal error".
import { UsageError } from '../core/errors.js';
import { type Said, say } from '../core/redact.js';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
};

export function fsReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e?.code && REASONS[e.code]) || e?.message || String(err);
}

/** `cannot write WHAT: reason; hint` as a usage error (exit 2). */
export function fileError(what: Said | string, err: unknown, hint: Said): UsageError {
  return new UsageError(say`cannot write ${what}: ${fsReason(err)}`, hint, { cause: err });
}

export function isFsError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && code in REASONS;
}
