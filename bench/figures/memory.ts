// Peak RSS of an export (perf-memory): `posdata sales` of opts.memSmall sales (200k) and of all
// of them (1M), as CSV and as Parquet, under /usr/bin/time.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, f1, f2, log, opts, peakRss, type Row, TMP } from '../harness.js';

async function exportPeakKiB(extra: string[], format = 'csv'): Promise<number> {
  // Parquet goes to a file (it is refused on a terminal; a pipe would do as well).
  const out = format === 'parquet' ? ['-o', join(TMP, 'mem.parquet')] : [];
  // `> /dev/null` as a shell gives it (write-only): posdata refuses a stdout that is closed
  // (stdio 'ignore' is /dev/null opened read-write, as a closed one is reopened).
  const devNull = openSync('/dev/null', 'w');
  try {
    const r = await peakRss(
      `posdata sales --format ${format} under /usr/bin/time`,
      [BIN, 'sales', '--format', format, '--rate', '0', ...out, ...extra],
      { stdout: devNull },
    );
    return r.kib;
  } finally {
    closeSync(devNull);
  }
}

export interface Memory {
  small: number;
  big: number;
  smallRuns: number[];
  bigRuns: number[];
  parquetSmall: number;
  parquetBig: number;
}

export async function measureMemory(): Promise<Memory> {
  const small: number[] = [];
  const big: number[] = [];
  const pqSmall: number[] = [];
  const pqBig: number[] = [];
  for (let i = 0; i < (opts.quick ? 1 : 2); i++) {
    small.push(await exportPeakKiB(['--limit', String(opts.memSmall)]));
    big.push(await exportPeakKiB([]));
    log(
      `peak RSS run ${i + 1}: ${opts.memSmall} sales ${small.at(-1)} KiB, ${opts.memOrders} sales ${big.at(-1)} KiB`,
    );
  }
  // Parquet holds a row group (10,000 rows) at a time: its peak should not grow with the export either.
  pqSmall.push(await exportPeakKiB(['--limit', String(opts.memSmall)], 'parquet'));
  pqBig.push(await exportPeakKiB([], 'parquet'));
  log(
    `peak RSS parquet: ${opts.memSmall} sales ${pqSmall.at(-1)} KiB, ${opts.memOrders} sales ${pqBig.at(-1)} KiB`,
  );
  // The smaller of the runs, as perf-memory takes it: V8 sizes its heap by how fast it allocates
  // against how fast it marks, which a busy host shifts (every run is printed beside it).
  return {
    small: Math.min(...small),
    big: Math.min(...big),
    smallRuns: small,
    bigRuns: big,
    parquetSmall: Math.max(...pqSmall),
    parquetBig: Math.max(...pqBig),
  };
}

/** Which run a figure is: the smaller of several, as perf-memory takes it. */
const smallerOf = (runs: number[]): string =>
  runs.length > 1 ? `the smaller of ${runs.length} runs` : 'one run';

export function memoryRows(mem: Memory | undefined, memOrders: number): Row[] {
  const MEM_SMALL = opts.memSmall;
  if (!mem) return [['Peak RSS', 'not measured: /usr/bin/time is missing', '', false]];
  return [
    [
      `Peak RSS, export of ${MEM_SMALL} sales (\`--limit ${MEM_SMALL}\`; ${smallerOf(mem.smallRuns)})`,
      `${f1(mem.small / 1024)} MiB (runs: ${mem.smallRuns.map((k) => f1(k / 1024)).join(' / ')})`,
      '',
      undefined,
    ],
    [
      `Peak RSS, export of all ${memOrders} sales (${smallerOf(mem.bigRuns)})`,
      `${f1(mem.big / 1024)} MiB (runs: ${mem.bigRuns.map((k) => f1(k / 1024)).join(' / ')})`,
      // Issue 30's goal, as ../shared/checks/perf-memory holds it (no V8 settings any more).
      '≤ 160 MiB',
      opts.quick ? undefined : mem.big <= 160 * 1024,
    ],
    [
      `Peak RSS growth (${memOrders} / ${MEM_SMALL})`,
      `×${f2(mem.big / mem.small)}`,
      '≤ ×1.25',
      opts.quick ? undefined : mem.big / mem.small <= 1.25,
    ],
    [
      `Peak RSS, Parquet export of ${MEM_SMALL} / all ${memOrders} sales`,
      `${f1(mem.parquetSmall / 1024)} MiB / ${f1(mem.parquetBig / 1024)} MiB: ×${f2(mem.parquetBig / mem.parquetSmall)}`,
      '',
      undefined,
    ],
  ];
}
