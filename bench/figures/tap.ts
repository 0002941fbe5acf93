// The Singer tap: `posdata tap` reading every sale against the ndjson export of the same fields.

import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, f0, f2, log, median, must, opts, type Row, type Sandbox, TMP } from '../harness.js';

/** The fields `posdata tap` reads of sales (the sync's defaults), for the export of the same rows. */
const TAP_SALES_FIELDS =
  'id,name,pos_reference,date_order,state,amount_total,amount_paid,amount_tax,amount_return,config_id,session_id,user_id,partner_id,payment_ids,company_id,currency_id,create_date,write_date';

/** Lines of a file, counted without holding it. */
function lineCount(file: string): number {
  return Number(execFileSync('wc', ['-l', file]).toString().trim().split(/\s+/)[0]);
}

export interface Tap {
  orders: number;
  tap: number[];
  ndjson: number[];
  checkpoint: number[];
  ratios: number[];
  checkpointRatios: number[];
}

/**
 * `posdata tap` reading every sale (stream sales, no state) against `posdata sales --format
 * ndjson` of the same fields: both write to a file, alternating, medians; the tap's RECORD
 * lines and the export's rows are counted against the sandbox's sales.
 */
export async function measureTap(sbx: Sandbox, orders: number): Promise<Tap> {
  const runs = opts.quick ? 1 : 3;
  const config = join(TMP, 'tap.json');
  writeFileSync(
    config,
    JSON.stringify({
      url: sbx.url,
      db: 'demo',
      user: 'admin',
      password: 'admin',
      rate: 0,
      streams: ['sales'],
    }),
  );
  const file = join(TMP, 'tap-out.jsonl');
  const toFile = async (what: string, args: string[]) => {
    const fd = openSync(file, 'w');
    try {
      return await must(what, process.execPath, [BIN, ...args], { stdout: fd });
    } finally {
      closeSync(fd);
    }
  };
  const out: Tap = { orders, tap: [], ndjson: [], checkpoint: [], ratios: [], checkpointRatios: [] };
  for (let i = 0; i < runs; i++) {
    const t = await toFile('posdata tap', ['tap', '--config', config, '--quiet']);
    const records = Number(execFileSync('grep', ['-c', '"type":"RECORD"', file]).toString().trim());
    if (records !== orders) throw new Error(`posdata tap sent ${records} sales of ${orders}`);
    const e = await toFile('posdata sales --format ndjson', [
      'sales',
      '--fields',
      TAP_SALES_FIELDS,
      '--format',
      'ndjson',
      '--rate',
      '0',
      '--quiet',
    ]);
    const rows = lineCount(file);
    if (rows !== orders) throw new Error(`posdata sales --format ndjson wrote ${rows} rows of ${orders}`);
    // The same export in (write_date, id) pages, as a first --checkpoint run reads them (and the
    // tap its incremental runs).
    const checkpoint = join(TMP, 'tap-bench.ckpt');
    rmSync(checkpoint, { force: true });
    const k = await toFile('posdata sales --checkpoint', [
      'sales',
      '--fields',
      TAP_SALES_FIELDS,
      '--format',
      'ndjson',
      '--checkpoint',
      checkpoint,
      '--rate',
      '0',
      '--quiet',
    ]);
    out.tap.push(t.ms);
    out.ndjson.push(e.ms);
    out.checkpoint.push(k.ms);
    log(
      `tap run ${i + 1}: posdata tap ${f0(t.ms)} ms; sales --format ndjson ${f0(e.ms)} ms; the same with --checkpoint ${f0(k.ms)} ms`,
    );
  }
  rmSync(file, { force: true });
  out.ratios = out.tap.map((v, i) => v / out.ndjson[i]);
  out.checkpointRatios = out.tap.map((v, i) => v / out.checkpoint[i]);
  return out;
}

export function tapRows(t: Tap | undefined): Row[] {
  if (!t) return [];
  const ratio = median(t.ratios);
  return [
    [
      `Singer tap, ${t.orders} sales: \`posdata tap\` (stream sales, no state) to a file (median)`,
      `${f0(median(t.tap))} ms (runs: ${t.tap.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      '`posdata sales --fields <the same> --format ndjson` to a file (median)',
      `${f0(median(t.ndjson))} ms (runs: ${t.ndjson.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      'posdata tap / ndjson export (median of per-run ratios)',
      f2(ratio),
      '≤ 1.2',
      opts.quick ? undefined : ratio <= 1.2,
    ],
    [
      'The same export with `--checkpoint` (a first run: (write_date, id) pages, as the tap reads after its first read) (median)',
      `${f0(median(t.checkpoint))} ms (runs: ${t.checkpoint.map(f0).join(' / ')}); tap / it ${f2(median(t.checkpointRatios))}`,
      '',
      undefined,
    ],
  ];
}
