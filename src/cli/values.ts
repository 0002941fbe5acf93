// Parsing of flag values: one clear usage error per bad value.
import { UsageError } from '../core/errors.js';
import { MIN_RATE } from '../core/ratelimit.js';

export function positiveInt(flag: string, min = 1) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw.trim()))
      throw new UsageError(
        `${flag} '${raw}' is not a whole number`,
        `give ${flag} a number of at least ${min}`,
      );
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min)
      throw new UsageError(`${flag} '${raw}' is out of range`, `give ${flag} a number of at least ${min}`);
    return n;
  };
}

export function number(flag: string, min = 0) {
  return (raw: string): number => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min) {
      throw new UsageError(`${flag} '${raw}' is not a number of at least ${min}`, `give ${flag} a number`);
    }
    return n;
  };
}

/** `--rate`: requests a minute, 0 for no limit; fractions allowed (0.5 = one every 2 minutes). */
export function rate(flag: string) {
  return (raw: string): number => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < 0) {
      throw new UsageError(`${flag} '${raw}' is not a number of at least 0`, `give ${flag} a number`);
    }
    if (n > 0 && n < MIN_RATE) {
      throw new UsageError(
        `${flag} '${raw}' is too slow to wait for (below ${MIN_RATE}, one request every 1000 minutes)`,
        `give ${flag} 0 for no limit, or at least ${MIN_RATE}`,
      );
    }
    return n;
  };
}

export function list(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
