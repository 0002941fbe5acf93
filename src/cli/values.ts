// Parsing of flag values: one clear usage error per bad value.
import { UsageError } from '../core/errors.js';
import { MIN_RATE } from '../core/ratelimit.js';
import { own, type Said, say } from '../core/redact.js';
import { MAX_TIMER_SECONDS } from '../core/timer.js';

/**
 * A whole number of at least `min`. `what` says what the number names and where a person finds
 * it (an id), for the hint: a register's name where its id was wanted.
 */
export function positiveInt(flag: string, min = 1, what?: Said) {
  const hint = what ?? say`give ${own(flag)} a number of at least ${min}`;
  return (raw: string): number => {
    if (!/^[+-]?\d+$/.test(raw.trim()))
      throw new UsageError(say`${own(flag)} '${raw}' is not a whole number`, hint);
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min)
      throw new UsageError(say`${own(flag)} '${raw}' is out of range`, hint);
    return n;
  };
}

export function number(flag: string, min = 0) {
  return (raw: string): number => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min) {
      throw new UsageError(
        say`${own(flag)} '${raw}' is not a number of at least ${min}`,
        say`give ${own(flag)} a number`,
      );
    }
    return n;
  };
}

/**
 * A duration in seconds (--timeout, --watch, ...): at least `min`, whole where `whole`, and
 * at most MAX_TIMER_SECONDS (refused, exit 2, rather than wrapped to 1 ms).
 */
export function seconds(flag: string, min: number, whole = false) {
  const parse = whole ? positiveInt(flag, min) : number(flag, min);
  return (raw: string): number => {
    const n = parse(raw);
    if (n > MAX_TIMER_SECONDS)
      throw new UsageError(
        say`${own(flag)} '${raw}' is longer than a timer can wait (${MAX_TIMER_SECONDS} s, about 24 days)`,
        say`give ${own(flag)} at most ${MAX_TIMER_SECONDS} seconds`,
      );
    return n;
  };
}

/** `--rate`: requests a minute, 0 for no limit; fractions allowed (0.5 = one every 2 minutes). */
export function rate(flag: string) {
  const parse = number(flag, 0);
  return (raw: string): number => {
    const n = parse(raw);
    if (n > 0 && n < MIN_RATE) {
      throw new UsageError(
        say`${own(flag)} '${raw}' is too slow to wait for (below ${MIN_RATE}, one request every 1000 minutes)`,
        say`give ${own(flag)} 0 for no limit, or at least ${MIN_RATE}`,
      );
    }
    return n;
  };
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
};

/** The largest reply a string can hold once decoded (V8 caps strings near 512 MiB). */
const MAX_REPLY_LIMIT = 500 * 1024 ** 2;

/** A size in bytes: `1048576`, `64MiB`, `64M` (MiB, as curl), `500MB` (10^6), `512KiB`. */
export function byteSize(flag: string) {
  return (raw: string): number => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw);
    const unit = m ? UNITS[(m[2] as string).toLowerCase()] : undefined;
    const n = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : Number.NaN;
    if (!(n >= 1)) {
      throw new UsageError(
        say`${own(flag)} '${raw}' is not a size`,
        say`give ${own(flag)} bytes or a size with a unit, e.g. 64MiB, 500MB, 1GiB`,
      );
    }
    if (n > MAX_REPLY_LIMIT) {
      throw new UsageError(
        say`${own(flag)} '${raw}' is above ${MAX_REPLY_LIMIT / 1024 ** 2} MiB, the most a reply can be read as text`,
        say`give ${own(flag)} at most 500MiB; ask for less with --page-size or --fields`,
      );
    }
    return n;
  };
}

/** A TCP port to listen on: 0 (any free port) to 65535. */
export function port(flag: string) {
  return (raw: string): number => {
    const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(n >= 0 && n <= 65535))
      throw new UsageError(
        say`${own(flag)} '${raw}' is not a port`,
        say`give ${own(flag)} a number from 1 to 65535 (0 = any free port)`,
      );
    return n;
  };
}

/** `--delimiter`: one character that can separate CSV cells (not a quote, CR or LF). */
export function delimiter(flag: string) {
  return (raw: string): string => {
    if ([...raw].length !== 1)
      throw new UsageError(say`${own(flag)} '${raw}' is not one character`, say`use e.g. ${own(flag)} ";"`);
    if (raw === '"' || raw === '\n' || raw === '\r')
      throw new UsageError(
        say`${own(flag)} ${JSON.stringify(raw)} cannot separate CSV cells: it quotes or ends them`,
        say`use e.g. ${own(flag)} ";" or ${own(flag)} "|"`,
      );
    return raw;
  };
}
