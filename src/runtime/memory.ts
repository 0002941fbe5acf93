// Process-wide settings of V8, each an explicit call from the command that needs it (the list
// exports and sync), never a side effect of importing a module. Each stays because the
// benchmark shows it is needed: peak RSS of `posdata sales --format csv` over 20k and 500k
// sales of a --seed 9 sandbox (perf-memory: at most 120 MiB, at most x1.3 from 20k to 500k),
// two runs each, with one of them left out (Node 20, this machine):
//
//   all three                  20k 82 MiB   500k 94 MiB   x1.14
//   without --liftoff-only     20k 115-117  500k 118-119  x1.01-1.03
//   without the young hold     20k 82-83    500k 113-114  x1.37-1.38   (goal missed)
//   without the full GCs       20k 82-83    500k 120-121  x1.45-1.46   (goal missed)
//   none                       20k 115-118  500k 133-134  x1.13-1.16   (goal missed)
//
// `posdata sync sales` of 500k into PostgreSQL: 112 MiB with them, 161-180 MiB (x1.32-1.44)
// without. They cost an export about a tenth of its wall time and a sync about a twentieth.
// `posdata serve` grew more with --liftoff-only than without (32-34 against 10-16 MiB in
// test/serve/memory.test.ts): it takes none of them.
//
// Why, for an export: it allocates about 2 KB per record, nearly all of it garbage at once.
// - undici parses HTTP with llhttp compiled to WebAssembly; V8's optimising tier for it holds
//   20-35 MiB more at the peak, for no speed that shows: the baseline compiler is kept.
// - The young generation grows (doubling) whenever enough survives its collections, up to
//   2 x 16 MiB, and never shrinks while the export runs: it is held at 2 x 8 MiB by turning
//   the growth factor to 1 once it gets there (V8 reads that flag each time it grows it).
// - What outlives young collections piles up in the old generation, which V8 lets grow to
//   about three times the live set before it collects: a full collection once it has grown
//   by GROWTH keeps it near the live set (a few per 100k records). The collector is reached
//   through --expose-gc, turned on at the first such collection.
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

/** llhttp's WebAssembly on V8's baseline tier: call before the first request. */
export function wasmOnBaselineTier(): void {
  setFlagsFromString('--liftoff-only');
}
