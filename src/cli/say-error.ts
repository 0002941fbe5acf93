// An error as the contract's one line on standard error, and its exit code: what a run
// ends with (program.ts, main.ts), and what each failed server's run says in a chain (servers.ts).
import { EXIT, isPosdataError } from '../core/errors.js';
import { say, stackSaid } from '../core/redact.js';
import type { IO } from './io.js';

/**
 * The one line of an error on standard error, its secrets masked where they stand in a
 * value; the words of posdata around the values are never masked. Returns the exit code.
 */
export function sayError(err: unknown, io: IO, debug: boolean): number {
  if (isPosdataError(err)) {
    io.err.write(`posdata: ${err.line(io.redactor)}\n`);
    if (debug && err.cause) io.err.line(stackSaid(err.cause));
    return err.exitCode;
  }
  const e = err as Error;
  io.err.line(
    say`posdata: internal error: ${e?.message ?? String(err)}; please report it (run with --debug for details)`,
  );
  if (debug) io.err.line(stackSaid(err));
  return EXIT.internal;
}
