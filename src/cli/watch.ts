// `--watch SECONDS`: run a refresh again and again until the run is stopped (Ctrl-C, SIGTERM:
// exit 0, as serve and sandbox stop, and as `watch` and psql's \watch end), or `--times N`
// refreshes have run. A refresh that fails on the connection (the server down, a timeout, a
// proxy's error page: exit 6's errors) is shown and tried again, each time after twice the
// wait before (from SECONDS, at most 5 minutes or SECONDS); any other failure (a refused
// login, access rights, a bug) ends the run with its own exit code. A refresh under way when
// the stop comes is dropped, not waited for.
// `Screen`: a block of text redrawn in place on a terminal (the cursor moved up over the last
// block, the rest of the screen cleared); what was drawn last stays readable once it stops.
import { stripVTControlCharacters } from 'node:util';
import { EXIT, isPosdataError } from '../core/errors.js';
import type { Context } from './context.js';
import type { IO } from './io.js';

export interface Watch {
  /** Seconds between refreshes. */
  every: number;
  /** Stop after this many refreshes (psql's \watch count). */
  times?: number;
  refresh(): Promise<void>;
  /** A refresh failed and will be tried again at `next`: say so. */
  failed(err: unknown, next: Date): Promise<void> | void;
  /** The run was stopped while a refresh was under way: drop what it holds open. */
  abandon(): void;
}

const STOP = Symbol('stop');

/** A failure worth another try: the connection, not what the server or posdata refused. */
export function retryable(err: unknown): boolean {
  return isPosdataError(err) && err.exitCode === EXIT.connection;
}

/** The wait after `failures` failed refreshes in a row: doubling, within 5 min (or `every`). */
export function backoff(every: number, failures: number): number {
  if (failures === 0) return every;
  return Math.min(every * 2 ** (failures - 1), Math.max(every, 300));
}

export async function watch(ctx: Context, w: Watch): Promise<void> {
  ctx.runsUntilStopped();
  const stopped = ctx.stopped.then((): typeof STOP => STOP);
  let failures = 0;
  for (let n = 1; ; n++) {
    const attempt = w.refresh().then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    const got = await Promise.race([attempt, stopped]);
    if (got === STOP) {
      w.abandon();
      return;
    }
    if (got) {
      if (!retryable(got.err)) throw got.err;
      failures++;
    } else failures = 0;
    if (w.times !== undefined && n >= w.times) {
      if (got) throw got.err;
      return;
    }
    const wait = backoff(w.every, failures);
    if (got) await w.failed(got.err, new Date(Date.now() + wait * 1000));
    let timer: NodeJS.Timeout | undefined;
    const slept = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, wait * 1000);
    });
    const woke = await Promise.race([slept, stopped]);
    clearTimeout(timer);
    if (woke === STOP) return;
  }
}

/** A block of text redrawn in place on a terminal. */
export class Screen {
  /** Lines on the terminal since the block's top: the block, and lines said below it. */
  private lines = 0;

  constructor(private readonly io: IO) {}

  /**
   * Replaces the block drawn last (and the lines said below it) with `text`, cut to the
   * terminal's height: the cursor cannot go back up over what scrolled off the top, so a taller
   * block would be drawn again under itself at every refresh.
   */
  draw(text: string): void {
    const shown = fitHeight(text, this.io.out.width, this.io.out.height);
    const up = this.lines > 0 ? `\x1b[${this.lines}A` : '';
    this.io.out.write(`${up}\r\x1b[J${shown}`);
    this.lines = countLines(shown, this.io.out.width);
  }

  /** A line was written below the block on the same terminal (standard error there too). */
  saidBelow(text: string): void {
    if (this.io.err.isTTY) this.lines += countLines(text, this.io.out.width);
  }

  /** Ends on a clean line under the block (over the ^C the terminal echoed). */
  end(): void {
    this.io.out.write('\r\x1b[K');
  }
}

/** Rows a text takes on a terminal this wide (long lines wrap). */
export function countLines(text: string, width: number): number {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (body === '') return text === '' ? 0 : 1;
  // Colour codes take no room.
  return stripVTControlCharacters(body)
    .split('\n')
    .reduce((n, l) => n + Math.max(1, Math.ceil([...l].length / Math.max(1, width))), 0);
}

/**
 * `text` as a terminal `height` rows tall shows it whole: as it is when it fits, else its first
 * lines and one line saying how many more there are (as watch(1) cuts what does not fit). It
 * leaves two rows: the cursor's under the block, and the command's above it (a block that
 * starts on the screen's first row is pushed into tmux's scrollback by each redraw's clear).
 */
export function fitHeight(text: string, width: number, height: number | undefined): string {
  if (height === undefined || countLines(text, width) <= height - 2) return text;
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  // Rows for the kept lines: all but the note's and the two left.
  const room = Math.max(0, height - 3);
  let kept = 0;
  let used = 0;
  for (const l of lines) {
    const rows = countLines(l, width);
    if (used + rows > room) break;
    used += rows;
    kept++;
  }
  const left = lines.length - kept;
  const note = `… ${left} more line${left === 1 ? '' : 's'} below: the terminal has ${height} rows; a taller one shows them all`;
  const head = lines
    .slice(0, kept)
    .map((l) => `${l}\n`)
    .join('');
  return `${head}${[...note].slice(0, Math.max(1, width)).join('')}\n`;
}
