// Why a file could not be written or read, in words (a full disk, a read-only place, no
// permission): what every layer that writes a file (the sinks, the profile store, the
// completion cache) says in its one line. Such a failure is not a bug: exit 2, never
// "internal error".

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

export function isFsError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && code in REASONS;
}
