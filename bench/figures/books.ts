// `posdata books` of a month and of one day on a sandbox of --orders sales (200,000 by default):
// the requests of each (through the counting proxy: a month must take no more than a day, none
// per session), the month's wall time, CPU time and peak RSS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BIN,
  countingProxy,
  ENV,
  ensureTime,
  f0,
  log,
  login,
  met,
  opts,
  startSandbox,
  TMP,
  timed,
} from '../harness.js';

export interface BooksFigures {
  orders: number;
  from: string;
  to: string;
  sessions: number;
  requests: number;
  dayRequests: number;
  bytes: number;
  ms: number;
  cpuMs: number;
  kib: number;
}

export async function measureBooks(): Promise<BooksFigures> {
  if (!ensureTime()) throw new Error('/usr/bin/time is needed for peak RSS');
  log(`starting a sandbox of ${opts.orders} sales for the books`);
  const sbx = await startSandbox(opts.orders);
  try {
    await login(sbx.url);
    const proxy = await countingProxy(sbx.url);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const file = join(TMP, 'books.json');
    const env = { ...ENV, POSDATA_URL: proxy.url };
    try {
      proxy.take();
      // Yesterday: a closed day (today's sessions may still be open, and no session reads less).
      const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await timed('posdata books (a day)', [BIN, 'books', '--date', day, '--tz', 'UTC', '--format', 'json'], {
        env,
      });
      const dayCounts = proxy.take();
      const r = await timed(
        'posdata books (a month)',
        [BIN, 'books', '--from', from, '--to', to, '--tz', 'UTC', '--format', 'json', '-o', file],
        { env },
      );
      const counts = proxy.take();
      const rows = JSON.parse(readFileSync(file, 'utf8')) as { session_id: number }[];
      const x = {
        orders: opts.orders,
        from,
        to,
        sessions: new Set(rows.map((row) => row.session_id)).size,
        dayRequests: dayCounts.requests,
        ...counts,
        ...r,
      };
      log(`books: ${x.sessions} sessions, ${x.requests} requests (a day ${x.dayRequests}), ${f0(x.ms)} ms`);
      return x;
    } finally {
      await proxy.close();
    }
  } finally {
    await sbx.stop();
  }
}

export function booksSection(x: BooksFigures): string {
  return `
### posdata books: a month of closings on ${x.orders} sales

\`posdata books --from ${x.from} --to ${x.to} --tz UTC --format json\` through the counting proxy: ${x.sessions} closed sessions, each one's entry beside its orders' lines and payments. A month takes the requests a day takes (the sessions, the orders' lines, payments and entry lines grouped, the entries, the accounts, the cash lines, the invoices), none per session: a handful of read_group calls for the whole month.

| | value | Goal | |
|---|---|---|---|
| requests (a month) | ${x.requests} | a day's (${x.dayRequests}): none per session | ${met(x.requests <= x.dayRequests)} |
| bytes received | ${f0(x.bytes / 1024)} KB | | |
| wall time | ${f0(x.ms)} ms | a few seconds (≤ 10 s) | ${met(x.ms <= 10_000)} |
| CPU time (user + sys) | ${f0(x.cpuMs)} ms | | |
| peak RSS | ${f0(x.kib / 1024)} MiB | | |
`;
}
