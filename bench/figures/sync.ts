// `posdata sync sales` into PostgreSQL against the floor of a hand-made loader.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  BIN,
  f0,
  f1,
  f2,
  log,
  login,
  median,
  must,
  opts,
  type Postgres,
  peakRss,
  type Row,
  type Sandbox,
  startPostgres,
  startSandbox,
  TMP,
} from '../harness.js';

/** `posdata sync sales` into a fresh schema: wall ms and peak RSS (KiB, where /usr/bin/time is). */
async function timedSync(pg: Postgres, schema: string, timeTool: string | undefined) {
  await pg.sql(`drop schema if exists ${schema} cascade`);
  const args = [BIN, 'sync', 'sales', '--to', pg.url, '--schema', schema, '--rate', '0', '--quiet'];
  if (!timeTool) return { ms: (await must('posdata sync', process.execPath, args)).ms, kib: undefined };
  return peakRss('posdata sync', args);
}

export type Sync =
  | { skipped: string }
  | {
      skipped?: undefined;
      orders: number;
      version: string;
      sync: number[];
      exportMs: number[];
      copyMs: number[];
      floor: number[];
      rss: number[];
      ratios: number[];
      smallRss?: number;
    };

/**
 * posdata sync of every sale into an empty schema, against the floor of what a hand-made
 * loader needs: posdata's CSV export of the same fields, then `psql \copy` of the file into a
 * table of the same columns and primary key. The two alternate, each going first in turn; peak RSS of the
 * sync at opts.syncSmall sales (a sandbox of that size) and at all of them.
 */
export async function measureSync(sbx: Sandbox, orders: number, timeTool: string | undefined): Promise<Sync> {
  const pg = await startPostgres();
  if (!pg) return { skipped: 'no PostgreSQL server binaries (apt-get install postgresql)' };
  try {
    // Three runs, the two alternating which goes first: the first request of a fresh sandbox is
    // its slowest (its code not yet optimised), and whichever went first would pay it each time.
    const runs = opts.quick ? 1 : 3;
    const out = {
      orders,
      version: pg.version,
      sync: [] as number[],
      exportMs: [] as number[],
      copyMs: [] as number[],
      floor: [] as number[],
      rss: [] as number[],
      ratios: [] as number[],
      smallRss: undefined as number | undefined,
    };
    const csv = join(TMP, 'floor.csv');
    /** The columns the sync writes, for the floor's export (from the first sync's state). */
    let fields: string | undefined;
    const syncOnce = async () => {
      const s = await timedSync(pg, 'bench', timeTool);
      out.sync.push(s.ms);
      if (s.kib) out.rss.push(s.kib);
      const n = Number(await pg.sql('select count(*) from bench.sales'));
      if (n !== orders) throw new Error(`posdata sync loaded ${n} sales of ${orders}`);
      fields ??= await pg.sql(
        "select array_to_string(fields, ',') from bench.posdata_sync_state where resource = 'sales'",
      );
    };
    const floorOnce = async () => {
      const e = await must('posdata sales (floor)', process.execPath, [
        BIN,
        'sales',
        '--fields',
        fields!,
        '--rate',
        '0',
        '-o',
        csv,
      ]);
      await pg.sql(
        'drop table if exists public.floor_sales; create table public.floor_sales (like bench.sales including all); alter table public.floor_sales alter payment_ids type text',
      );
      const header = readFileSync(csv, 'utf8').slice(0, 4096).split('\n')[0];
      const c = await must('psql \\copy (floor)', pg.psql, [
        pg.url,
        '-qc',
        `\\copy public.floor_sales(${header}) FROM '${csv}' WITH (FORMAT csv, HEADER true)`,
      ]);
      const m = Number(await pg.sql('select count(*) from public.floor_sales'));
      if (m !== orders) throw new Error(`psql \\copy loaded ${m} sales of ${orders}`);
      out.exportMs.push(e.ms);
      out.copyMs.push(c.ms);
      out.floor.push(e.ms + c.ms);
    };
    for (let i = 0; i < runs; i++) {
      const floorFirst = i % 2 === 1;
      if (floorFirst) await floorOnce();
      await syncOnce();
      if (!floorFirst) await floorOnce();
      log(
        `sync run ${i + 1}${floorFirst ? ' (floor first)' : ''}: posdata sync ${f0(out.sync[i])} ms; floor: export ${f0(out.exportMs[i])} + \\copy ${f0(out.copyMs[i])} ms`,
      );
    }
    rmSync(csv, { force: true });
    out.ratios = out.sync.map((v, i) => v / out.floor[i]);
    if (timeTool) {
      log(`starting a sandbox with ${opts.syncSmall} sales for the sync's memory at that size`);
      const small = await startSandbox(opts.syncSmall);
      try {
        await login(small.url);
        out.smallRss = (await timedSync(pg, 'bench_small', timeTool)).kib;
      } finally {
        await small.stop();
        await login(sbx.url);
      }
      log(
        `sync peak RSS: ${opts.syncSmall} sales ${out.smallRss} KiB, ${orders} sales ${Math.max(...out.rss)} KiB`,
      );
    }
    return out;
  } finally {
    pg.stop();
  }
}

export function syncRows(y: Sync | undefined): Row[] {
  if (!y) return [];
  if (y.skipped !== undefined) return [['Sync into PostgreSQL', `not measured: ${y.skipped}`, '', false]];
  const SMALL = opts.syncSmall;
  const big = y.rss.length ? Math.max(...y.rss) : undefined;
  const ratio = median(y.ratios);
  return [
    [
      `Sync ${y.orders} sales into PostgreSQL ${y.version}: \`posdata sync sales\`, empty schema (median)`,
      `${f0(median(y.sync))} ms (runs: ${y.sync.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      'Floor: `posdata sales --fields <the same> -o FILE.csv` + `psql \\copy` into a table of the same columns and key (median)',
      `${f0(median(y.floor))} ms (export ${y.exportMs.map(f0).join(' / ')}; \\copy ${y.copyMs.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      'posdata sync / floor (median of per-run ratios)',
      f2(ratio),
      '≤ 1.15',
      opts.quick ? undefined : ratio <= 1.15,
    ],
    ...(big && y.smallRss
      ? ([
          [
            `Peak RSS, sync of ${SMALL} / ${y.orders} sales`,
            `${f1(y.smallRss / 1024)} / ${f1(big / 1024)} MiB`,
            '',
            undefined,
          ],
          [
            `Peak RSS growth of the sync (${y.orders} / ${SMALL})`,
            `×${f2(big / y.smallRss)}`,
            '≤ ×1.3',
            opts.quick ? undefined : big / y.smallRss <= 1.3,
          ],
        ] satisfies Row[])
      : []),
  ];
}
