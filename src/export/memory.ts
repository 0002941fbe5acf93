// A long export allocates about 2 KB per record, nearly all of it garbage at once. Two
// things make V8's peak memory grow with the export instead of staying flat:
// - the young generation grows (doubling) whenever enough survives its collections, up to
//   2 x 16 MiB, and never shrinks while the export runs: it is held at 2 x 8 MiB by
//   turning the growth factor to 1 once it gets there (V8 reads that flag each time it
//   grows the space);
// - what outlives young collections piles up in the old generation, which V8 lets grow to
//   about three times the live set before it collects: a full collection once it has grown
//   by GROWTH keeps it near the live set (a few per 100k records).
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
