// A long export allocates about 2 KB per record, nearly all of it garbage at once. Two
// things make V8's peak memory grow with the export instead of staying flat:
// - the young generation grows (doubling) whenever enough survives its collections, up to
//   2 x 16 MiB, and never shrinks while the export runs: it is held at 2 x 8 MiB by
//   turning the growth factor to 1 once it gets there (V8 reads that flag each time it
//   grows the space);
// - what outlives young collections piles up in the old generation, which V8 lets grow to
//   about three times the live set before it collects: a full collection once it has grown
//   by GROWTH keeps it near the live set (a few per 100k records).
// The young generation starts at 2 x 1 MiB and doubles after each collection where much
// survives: on an export that is four or five collections in the first pages, each
// promoting most of a page to the old generation. It is sent to 2 x 8 MiB in one step
// instead (a larger growth factor until it is held): the first 15 pages of 200k sales took
// 120-130 ms instead of 135-155, with the same peak memory at 20k and 500k.
// Measured on 500k sales (bench/notes.md). The collector is reached through --expose-gc.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const YOUNG = 16 * 2 ** 20;
const GROWTH = 4 * 2 ** 20;
/** Records between two looks at the old generation. */
const LOOK = 10_000;

let gc: (() => void) | null | undefined;
let youngHeld = false;
let base: number | undefined;

function collector(): (() => void) | null {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  return gc;
}

function spaces(): { young: number; old: number } {
  let young = 0;
  let old = 0;
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_name === 'new_space') young = s.space_size;
    else if (s.space_name === 'old_space' || s.space_name === 'large_object_space') old += s.space_used_size;
  }
  return { young, old };
}

/** Call before the first page. */
export function exportStarts(): void {
  if (youngHeld) return;
  // Measured on Node 20 and 24: from its first size (1 MiB in V8's statistics) the space
  // grows to 2 MiB x the factor, from any later size to that size x the factor.
  const factor = Math.floor(YOUNG / Math.max(spaces().young, 2 ** 21));
  if (factor > 2) setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/** Call after each page with the running count of records. */
export function afterRecords(before: number, after: number): void {
  const look = Math.floor(before / LOOK) !== Math.floor(after / LOOK);
  if (youngHeld && !look) return;
  const { young, old } = spaces();
  if (!youngHeld && young >= YOUNG) {
    setFlagsFromString('--semi-space-growth-factor=1');
    youngHeld = true;
  }
  if (!look) return;
  if (base === undefined || old < base) base = old;
  if (old - base < GROWTH) return;
  collector()?.();
  base = spaces().old;
}
