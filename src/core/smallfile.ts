// A file posdata reads whole (the tap's config, state and catalog, a password file): a regular
// file of a sane size, refused before it is read otherwise. A named pipe with no writer would
// block a synchronous open that no signal ends, /dev/zero never ends, and a file of hundreds
// of MB read whole aborts Node (std::bad_alloc): each is one line and exit 2 instead.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from './errors.js';
import { own, type Said, say } from './redact.js';

export const MiB = 1 << 20;

function sizeText(bytes: number): string {
  return bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * The text of the regular file at `path` (`what` names it in the one line: "the state"),
 * at most `limit` bytes; a leading UTF-8 byte order mark (a file saved by Notepad) is left
 * out. A read that fails for another reason throws the fs error for the caller to word.
 */
export function readSmallFile(path: string, what: string, limit: number, hint: Said): string {
  // O_NONBLOCK: the open of a FIFO returns at once (it would wait for a writer); on a
  // regular file it changes nothing.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new UsageError(
        say`${own(what)} ${path} is ${own(st.isFIFO() ? 'a named pipe' : st.isDirectory() ? 'a folder' : 'a device or another special file')}, not a regular file`,
        hint,
      );
    const tooBig = () =>
      new UsageError(say`${own(what)} ${path} is larger than ${own(sizeText(limit))}`, hint);
    if (st.size > limit) throw tooBig();
    // The file may grow while it is read: never more than the limit.
    const chunks: Buffer[] = [];
    let n = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(st.size - n, 0) + 64 * 1024, limit + 1 - n));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      n += got;
      if (n > limit) throw tooBig();
    }
    const buf = Buffer.concat(chunks, n);
    const text = buf.subarray(0, n).toString('utf8');
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } finally {
    closeSync(fd);
  }
}
