// The one place that asks about the terminal: is stdout a TTY, colour, width, progress.
// Nothing else in posdata looks at process.stdout/stderr properties.

export interface IO {
  stdoutTTY: boolean;
  stderrTTY: boolean;
  color: boolean;
  columns: number;
  quiet: boolean;
  debug: boolean;
  err(line: string): void;
  /** A transient status line on stderr (terminal only); '' clears it. */
  progress(line: string): void;
}

export function makeIO(opts: { quiet?: boolean; debug?: boolean; color?: boolean } = {}): IO {
  const stdoutTTY = Boolean(process.stdout.isTTY);
  const stderrTTY = Boolean(process.stderr.isTTY);
  const env = process.env;
  const color =
    opts.color !== false &&
    !('NO_COLOR' in env && env.NO_COLOR !== '') &&
    (env.FORCE_COLOR ? env.FORCE_COLOR !== '0' : stdoutTTY);
  let shown = false;
  const io: IO = {
    stdoutTTY,
    stderrTTY,
    color,
    columns: process.stdout.columns || Number(env.COLUMNS) || 80,
    quiet: Boolean(opts.quiet),
    debug: Boolean(opts.debug),
    err(line: string) {
      if (shown) {
        process.stderr.write('\r\x1b[K');
        shown = false;
      }
      process.stderr.write(`${line}\n`);
    },
    progress(line: string) {
      if (!stderrTTY || io.quiet) return;
      process.stderr.write(`\r\x1b[K${line}`);
      shown = line !== '';
    },
  };
  return io;
}
