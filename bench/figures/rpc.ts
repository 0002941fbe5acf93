// RPC calls per export: the `[rpc] →` lines of `posdata --debug sales`, by method.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, f0, f2, must, PAGE_SIZE, type Row, TMP } from '../harness.js';

export interface RpcCount {
  total: number;
  pages: number;
  pageRequests: number;
  perPage: number;
  byMethod: Record<string, number>;
  rows: number;
  ms: number;
}

export async function countRpc(extra: string[]): Promise<RpcCount> {
  const out = join(TMP, 'rpc.csv');
  const r = await must('posdata --debug sales', process.execPath, [
    BIN,
    'sales',
    '--debug',
    '--format',
    'csv',
    '--rate',
    '0',
    '-o',
    out,
    ...extra,
  ]);
  const byMethod: Record<string, number> = {};
  let total = 0;
  let pageRequests = 0;
  for (const line of r.stderr.split('\n')) {
    const m = /^\[rpc\] → \S+ (\S+)/.exec(line);
    if (!m) continue;
    total++;
    // A page is asked with a limit; a read of many2one names (by the records that hold them) without.
    const page = m[1] === 'pos.order.search_read' && line.includes('"limit":');
    const key = m[1] === 'pos.order.search_read' && !page ? 'pos.order.search_read (names)' : m[1];
    if (page) pageRequests++;
    byMethod[key] = (byMethod[key] ?? 0) + 1;
  }
  const setup = (byMethod['pos.order.fields_get'] ?? 0) + (byMethod['pos.order.search_count'] ?? 0);
  const rows = readFileSync(out, 'utf8').split('\n').length - 2;
  const pages = Math.ceil(rows / PAGE_SIZE);
  return {
    total,
    pages,
    pageRequests,
    perPage: pages ? (total - setup) / pages : Number.NaN,
    byMethod,
    rows,
    ms: r.ms,
  };
}

export interface Rpc {
  plain: RpcCount;
  pay: RpcCount;
}

/** The default export and the one `--with-payments`. */
export async function measureRpc(): Promise<Rpc> {
  return { plain: await countRpc([]), pay: await countRpc(['--with-payments']) };
}

export function rpcRows(rpc: Rpc): Row[] {
  return [
    [
      'RPC calls, default export',
      `${rpc.plain.total} (${rpc.plain.pages} pages of ${PAGE_SIZE} sales in ${rpc.plain.pageRequests} requests; ${f2(rpc.plain.perPage)} per page)`,
      '',
      undefined,
    ],
    [
      'RPC calls, `--with-payments`',
      `${rpc.pay.total} (${rpc.pay.pages} pages in ${rpc.pay.pageRequests} requests; ${f2(rpc.pay.perPage)} per page)`,
      '≤ 3 per page',
      rpc.pay.perPage <= 3,
    ],
  ];
}

/** The requests by method, for the report's section under the table. */
export function rpcMethods(rpc: Rpc): string {
  const methods = (b: Record<string, number>) =>
    Object.entries(b)
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
  return `
### RPC calls by method

- default export: ${methods(rpc.plain.byMethod)} (${f0(rpc.plain.ms)} ms with --debug)
- \`--with-payments\`: ${methods(rpc.pay.byMethod)} (${f0(rpc.pay.ms)} ms with --debug)
`;
}
