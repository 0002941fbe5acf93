// The one place that knows the terminal: standard input, output and error, each with whether
// it is a terminal and how wide; colour; --quiet and --debug; and the redactor that masks the
// run's secrets in every line posdata writes on standard error. Commands get it from their
// context; nothing else in posdata looks at process.stdin, stdout or stderr.
// A long table goes through a pager on a terminal, as git and gh do.
// `testIO()` is the double the tests run commands with: it keeps what was written.
import { PassThrough, Readable, type Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { Redactor, type Said } from '../core/redact.js';
import { wantsColour } from './colour.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface Terminal {
  readonly isTTY: boolean;
  /** Columns to fit: COLUMNS when set, else the terminal's, else 80. */
  readonly width: number;
}

export interface Input extends Terminal {
  readonly stream: Readable;
}

export interface Output extends Terminal {
  readonly stream: Writable;
  /**
   * The file descriptor behind the stream where it is the process's own (1), for a sink that
   * writes a file or device synchronously and whole (sink/stdout.ts).
   */
  readonly fd: number | undefined;
  /** Data or help text, as it is. */
  write(text: string): void;
  /** Rows of the terminal (LINES when set, else the terminal's); undefined where unknown. */
  readonly height: number | undefined;
  /**
   * The pager a long text goes through (POSDATA_PAGER, else PAGER, else `less -FRX`), where
   * standard output is a terminal; undefined when it is not, or the pager is off (set empty
   * or to `cat`).
   */
  readonly pager: string | undefined;
  /**
   * `text` to the reader: through the pager when it is taller than the terminal, else
   * written as it is. Resolves once the pager has quit.
   */
  page(text: string): Promise<void>;
}

export interface ErrorOutput extends Output {
  /**
   * One line of posdata's on standard error: its own words as they are, the values from
   * outside in its holes masked (the run's secrets), as an error's line is.
   */
  line(said: Said): void;
  /** A transient status line (terminal only, never with --quiet); '' clears it. */
  progress(text: string): void;
}

export interface IO {
  readonly in: Input;
  readonly out: Output;
  readonly err: ErrorOutput;
  /** The run's secrets: what credentials resolution registers, what `err.line` masks. */
  readonly redactor: Redactor;
  /** Colour on standard output (a terminal, not NO_COLOR, not --no-color; FORCE_COLOR). */
  color: boolean;
  /** --quiet: no progress or notices. */
  quiet: boolean;
  /** --debug: traces and stacks. */
  debug: boolean;
}

/**
 * The three streams and what is known of them. The streams are read when first used: Node
 * builds process.stdin, stdout and stderr on first access (a socket, a terminal or a file
 * stream each, with the modules under them), which `--help` or an export to a file never needs
 * all of.
 */
export interface Streams {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  inTTY: boolean;
  outTTY: boolean;
  errTTY: boolean;
  /** The terminal's own width, where standard output is one. */
  columns?: number;
  /** The terminal's own height, where standard output is one. */
  rows?: number;
  /** Standard output is the process's own: a pager writes to it directly. */
  ownStdout?: boolean;
  /** Standard output's file descriptor, where it is the process's. */
  outFd?: number;
}

/** A positive whole number from the environment (COLUMNS, LINES), else undefined. */
function envSize(v: string | undefined): number | undefined {
  const n = Number(v);
  return v !== undefined && /^\d+$/.test(v.trim()) && n > 0 ? n : undefined;
}

/** The pager for a terminal: POSDATA_PAGER, else PAGER, else less; none when set empty or `cat`. */
export function pagerOf(env: Env, isTTY: boolean): string | undefined {
  if (!isTTY) return undefined;
  const chosen = env.POSDATA_PAGER ?? env.PAGER ?? 'less -FRX';
  const cmd = chosen.trim();
  return cmd === '' || cmd === 'cat' ? undefined : cmd;
}

/**
 * `text` through `pager` (run by the shell, as git does), its output on `out`: inherited
 * where that is the process's own standard output. LESS defaults to FRX (quit when it fits,
 * colours, leave the screen as it is), as git sets it. Ctrl-C is the pager's meanwhile: the
 * process ignores SIGINT until the pager has quit. A pager that cannot start writes nothing:
 * the text is written directly then.
 */
async function runPager(pager: string, text: string, out: Writable, own: boolean, env: Env): Promise<void> {
  // Loaded here: child_process (and the net and stream modules under it) only for a pager.
  const { spawn } = await import('node:child_process');
  const interrupts = own ? process.listeners('SIGINT') : [];
  const ignore = () => undefined;
  if (own) {
    for (const l of interrupts) process.removeListener('SIGINT', l);
    process.on('SIGINT', ignore);
  }
  const restore = () => {
    if (!own) return;
    process.removeListener('SIGINT', ignore);
    for (const l of interrupts) process.on('SIGINT', l);
  };
  return new Promise<void>((resolve) => {
    const child = spawn(pager, {
      shell: true,
      stdio: ['pipe', own ? 'inherit' : 'pipe', 'inherit'],
      env: { ...process.env, ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' },
    });
    let started = false;
    child.on('spawn', () => {
      started = true;
    });
    if (!own) child.stdout?.pipe(out, { end: false });
    // The reader quit the pager before the end: what is left is not wanted.
    child.stdin?.on('error', () => undefined);
    child.on('error', () => {
      restore();
      if (!started) out.write(text);
      resolve();
    });
    child.on('close', (code) => {
      restore();
      // The shell found no such pager (127, 126): nothing was shown, so the text is.
      if (code === 127 || code === 126) out.write(text);
      resolve();
    });
    child.stdin?.end(text);
  });
}

export function makeIO(s: Streams, env: Env): IO {
  const width = envSize(env.COLUMNS) ?? (s.columns || 80);
  const height = envSize(env.LINES) ?? (s.rows || undefined);
  const redactor = new Redactor();
  let shown = false;
  const output = (stream: () => Writable, isTTY: boolean, fd?: number, own = false): Output => {
    const pager = pagerOf(env, isTTY);
    return {
      get stream() {
        return stream();
      },
      isTTY,
      width,
      height,
      fd,
      pager,
      write: (text) => {
        stream().write(text);
      },
      page: async (text) => {
        const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        if (!pager || height === undefined || lines < height) {
          stream().write(text);
          return;
        }
        await runPager(pager, text, stream(), own, env);
      },
    };
  };
  const io: IO = {
    in: {
      get stream() {
        return s.stdin;
      },
      isTTY: s.inTTY,
      width,
    },
    out: output(() => s.stdout, s.outTTY, s.outFd, s.ownStdout),
    // Assigned onto the output itself, not spread from it: a spread would read its stream.
    err: Object.assign(
      output(() => s.stderr, s.errTTY),
      {
        line(said: Said) {
          if (shown) {
            s.stderr.write('\r\x1b[K');
            shown = false;
          }
          s.stderr.write(`${redactor.said(said)}\n`);
        },
        progress(text: string) {
          if (!s.errTTY || io.quiet) return;
          s.stderr.write(`\r\x1b[K${text}`);
          shown = text !== '';
        },
      },
    ),
    redactor,
    color: wantsColour(env, s.outTTY),
    quiet: false,
    debug: false,
  };
  return io;
}

/**
 * The process's own streams, each taken from Node when first used; `onStdout` is called with
 * standard output when it is (main's error handler).
 */
export function processIO(env: Env = process.env, onStdout?: (stdout: Writable) => void): IO {
  const outTTY = isatty(1);
  let seen = false;
  return makeIO(
    {
      get stdin() {
        return process.stdin;
      },
      get stdout() {
        if (!seen) {
          seen = true;
          onStdout?.(process.stdout);
        }
        return process.stdout;
      },
      get stderr() {
        return process.stderr;
      },
      inTTY: isatty(0),
      outTTY,
      errTTY: isatty(2),
      // A terminal's size is read off its stream; a file or pipe has none.
      columns: outTTY ? process.stdout.columns : undefined,
      rows: outTTY ? process.stdout.rows : undefined,
      ownStdout: true,
      outFd: outTTY ? undefined : 1,
    },
    env,
  );
}

/** What a command wrote through a test IO. */
export interface Captured {
  /** Standard output as bytes (Parquet). */
  stdoutBytes(): Buffer;
  stdout(): string;
  stderr(): string;
}

export interface TestIOOptions {
  /** Standard input's content; none by default (ended at once). */
  input?: string;
  outTTY?: boolean;
  errTTY?: boolean;
  inTTY?: boolean;
  env?: Env;
  /** The terminal's own size, as a terminal would give it. */
  columns?: number;
  rows?: number;
}

/** An IO over memory: standard input from `input`, outputs kept, terminals as asked. */
export function testIO(o: TestIOOptions = {}): IO & Captured {
  const keep = (): { stream: PassThrough; chunks: Buffer[] } => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    return { stream, chunks };
  };
  const out = keep();
  const err = keep();
  const io = makeIO(
    {
      stdin: Readable.from(o.input === undefined ? [] : [Buffer.from(o.input, 'utf8')]),
      stdout: out.stream,
      stderr: err.stream,
      inTTY: o.inTTY ?? false,
      outTTY: o.outTTY ?? false,
      errTTY: o.errTTY ?? false,
      columns: o.columns,
      rows: o.rows,
    },
    o.env ?? {},
  );
  return Object.assign(io, {
    stdoutBytes: () => Buffer.concat(out.chunks),
    stdout: () => Buffer.concat(out.chunks).toString('utf8'),
    stderr: () => Buffer.concat(err.chunks).toString('utf8'),
  });
}
