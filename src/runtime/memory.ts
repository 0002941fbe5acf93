// Process-wide settings of V8, each an explicit call from the command that needs it, never a
// side effect of importing a module. Each is kept because the benchmark shows it is needed
// (bench/notes.md, perf-memory: peak RSS of a CSV export of 20k and 500k sales).
//
// A long export allocates about 2 KB per record, nearly all of it garbage at once. Two
// things make V8's peak memory grow with the export instead of staying flat:
// - the young generation grows (doubling) whenever enough survives its collections, up to
//   2 x 16 MiB, and never shrinks while the export runs: it is held at 2 x 8 MiB by
//   turning the growth factor to 1 once it gets there (V8 reads that flag each time it
//   grows the space);
// - what outlives young collections piles up in the old generation, which V8 lets grow to
//   about three times the live set before it collects: a full collection once it has grown
//   by GROWTH keeps it near the live set (a few per 100k records).
// The collector is reached through --expose-gc, turned on at the first call.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const YOUNG = 16 * 2 ** 20;
const GROWTH = 4 * 2 ** 20;
/** Records between two looks at the old generation. */
const LOOK = 10_000;

let gc: (() => void) | null | undefined;
let youngHeld = false;

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

/** Keeps a long export's peak memory flat: call `after` with the running count after each page. */
export function heldMemory(): { after(count: number): void } {
  let before = 0;
  let base: number | undefined;
  return {
    after(count: number): void {
      const look = Math.floor(before / LOOK) !== Math.floor(count / LOOK);
      before = count;
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
    },
  };
}

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, at the first request. V8's
 * optimising tier for it costs 20-35 MiB of peak memory on a long export and no measurable
 * speed: keep the baseline compiler. Call before the first request.
 */
export function wasmOnBaselineTier(): void {
  setFlagsFromString('--liftoff-only');
}
