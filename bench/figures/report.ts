// `posdata report` of the month before this one on a sandbox of --orders sales (200,000 by default):
// its requests (through the counting proxy), wall time, peak RSS and the file's size.
import { statSync } from 'node:fs';
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
  peakRss,
  startSandbox,
  TMP,
} from '../harness.js';

export interface ReportFigures {
  orders: number;
  month: string;
  requests: number;
  bytes: number;
  ms: number;
  kib: number;
  fileBytes: number;
}

export async function measureReport(): Promise<ReportFigures> {
  if (!ensureTime()) throw new Error('/usr/bin/time is needed for peak RSS');
  log(`starting a sandbox of ${opts.orders} sales for the report`);
  // The sandbox's days of sales end where this month starts, so the month before holds all of
  // them whatever today's date: "this month" held two of its fourteen days on the 2nd.
  const thisMonth = new Date().toISOString().slice(0, 7);
  const sbx = await startSandbox(opts.orders, undefined, undefined, ['--now', `${thisMonth}-01T00:00:00Z`]);
  try {
    await login(sbx.url);
    const proxy = await countingProxy(sbx.url);
    const before = new Date(`${thisMonth}-01T00:00:00Z`);
    before.setUTCMonth(before.getUTCMonth() - 1);
    const month = before.toISOString().slice(0, 7);
    const file = join(TMP, 'report.html');
    try {
      proxy.take();
      const r = await peakRss(
        'posdata report',
        [BIN, 'report', '--month', month, '--tz', 'UTC', '--rate', '0', '-o', file],
        { env: { ...ENV, POSDATA_URL: proxy.url } },
      );
      const counts = proxy.take();
      const x = { orders: opts.orders, month, ...counts, ...r, fileBytes: statSync(file).size };
      log(`report: ${x.requests} requests, ${f0(x.ms)} ms, ${f0(x.fileBytes / 1024)} KB`);
      return x;
    } finally {
      await proxy.close();
    }
  } finally {
    await sbx.stop();
  }
}

export function reportSection(x: ReportFigures): string {
  return `
### posdata report: a month on ${x.orders} sales

\`posdata report --month ${x.month} --tz UTC --rate 0\` through the counting proxy. Its requests do not grow with the orders (eight summaries sharing their common groupings, the closings, the loss figures grouped by the server and the orders behind a marked one read once); the time is mostly the sandbox's own grouping.

| | value | Goal | |
|---|---|---|---|
| requests | ${x.requests} | bounded (≤ 60: the default --rate never waits) | ${met(x.requests <= 60)} |
| bytes received | ${f0(x.bytes / 1024)} KB | | |
| wall time | ${f0(x.ms)} ms | a few seconds (≤ 10 s) | ${met(x.ms <= 10_000)} |
| peak RSS | ${f0(x.kib / 1024)} MiB | | |
| the file | ${f0(x.fileBytes / 1024)} KB | small (≤ 1 MB) | ${met(x.fileBytes <= 1024 * 1024)} |
`;
}
