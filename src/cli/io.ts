// The one place that knows the terminal: standard input, output and error, each with whether
// it is a terminal and how wide; colour; --quiet and --debug; and the redactor that masks the
// run's secrets in every line posdata writes on standard error. Commands get it from their
// context; nothing else in posdata looks at process.stdin, stdout or stderr.
// `testIO()` is the double the tests run commands with: it keeps what was written.
import { PassThrough, Readable, type Writable } from 'node:stream';
import { Redactor, type Said } from '../core/redact.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface Terminal {
  readonly isTTY: boolean;
  /** Columns of the terminal (COLUMNS, else 80, where it is not one). */
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

export interface Streams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  inTTY: boolean;
  outTTY: boolean;
  errTTY: boolean;
  /** The terminal's own width, where standard output is one. */
  columns?: number;
  /** Standard output's file descriptor, where it is the process's. */
  outFd?: number;
}

export function makeIO(s: Streams, env: Env): IO {
  const width = s.columns || Number(env.COLUMNS) || 80;
  const redactor = new Redactor();
  let shown = false;
  const output = (stream: Writable, isTTY: boolean, fd?: number): Output => ({
    stream,
    isTTY,
    width,
    fd,
    write: (text) => {
      stream.write(text);
    },
  });
  const io: IO = {
    in: { stream: s.stdin, isTTY: s.inTTY, width },
    out: output(s.stdout, s.outTTY, s.outFd),
    err: {
      ...output(s.stderr, s.errTTY),
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
    redactor,
    color:
      !('NO_COLOR' in env && env.NO_COLOR !== '') && (env.FORCE_COLOR ? env.FORCE_COLOR !== '0' : s.outTTY),
    quiet: false,
    debug: false,
  };
  return io;
}

/** The process's own streams. */
export function processIO(env: Env = process.env): IO {
  return makeIO(
    {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      inTTY: Boolean(process.stdin.isTTY),
      outTTY: Boolean(process.stdout.isTTY),
      errTTY: Boolean(process.stderr.isTTY),
      columns: process.stdout.columns,
      outFd: process.stdout.isTTY ? undefined : 1,
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
    },
    o.env ?? {},
  );
  return Object.assign(io, {
    stdoutBytes: () => Buffer.concat(out.chunks),
    stdout: () => Buffer.concat(out.chunks).toString('utf8'),
    stderr: () => Buffer.concat(err.chunks).toString('utf8'),
  });
}
