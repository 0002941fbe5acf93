// `posdata summary` of a month (a 30-day sandbox) beside a CSV export of the same orders, both
// through a counting proxy: requests, bytes received, wall time; on an Odoo 17 sandbox
// (read_group) and on an Odoo 19 one (formatted_read_group).
import {
  BIN,
  type Counts,
  countingProxy,
  ENV,
  f0,
  f3,
  log,
  login,
  median,
  met,
  must,
  opts,
  type Sandbox,
  SUMMARY_DAYS,
  startSandbox,
} from '../harness.js';

export interface SummaryFigures {
  runs: { summary: number[]; export: number[] };
  sumMs: number;
  expMs: number;
  sum: Counts;
  exp: Counts;
  groups: number;
  note: string;
}

/**
 * A month's summary (`--by day`, as the acceptance check runs it) against the CSV export of
 * the same orders, alternating, through the counting proxy; medians of the wall times.
 */
async function measureSummary(sbx: Sandbox): Promise<SummaryFigures> {
  const proxy = await countingProxy(sbx.url);
  const env = { ...ENV, POSDATA_URL: proxy.url };
  const range = ['--rate', '0', '--tz', 'UTC', '--from', '2000-01-01', '--to', 'today'];
  const runs = { summary: [] as number[], export: [] as number[] };
  let sumCounts: Counts = { requests: 0, bytes: 0 };
  let expCounts: Counts = { requests: 0, bytes: 0 };
  let groups = 0;
  let note = '';
  try {
    for (let i = 0; i < opts.runs; i++) {
      proxy.take();
      const s = await must(
        'posdata summary',
        process.execPath,
        [BIN, 'summary', ...range, '--by', 'day', '--format', 'json'],
        { env },
      );
      runs.summary.push(s.ms);
      sumCounts = proxy.take();
      groups = (JSON.parse(s.stdout) as unknown[]).length;
      note = s.stderr.trim();
      const e = await must('posdata sales', process.execPath, [BIN, 'sales', ...range, '--format', 'csv'], {
        env,
      });
      runs.export.push(e.ms);
      expCounts = proxy.take();
      log(`summary run ${i + 1}: ${f0(s.ms)} ms vs export ${f0(e.ms)} ms`);
    }
  } finally {
    await proxy.close();
  }
  const sumMs = median(runs.summary);
  const expMs = median(runs.export);
  return { runs, sumMs, expMs, sum: sumCounts, exp: expCounts, groups, note };
}

/** The summary's figures by Odoo version. */
export type Summary = Record<string, SummaryFigures>;

/** The summary on an Odoo 17 sandbox (read_group) and on an Odoo 19 one (formatted_read_group). */
export async function measureSummaries(): Promise<Summary> {
  const summary: Summary = {};
  for (const version of ['17', '19']) {
    log(`starting an Odoo ${version} sandbox with ${opts.summaryOrders} sales over ${SUMMARY_DAYS} days`);
    const sbx = await startSandbox(opts.summaryOrders, SUMMARY_DAYS, version);
    try {
      log(`sandbox ready in ${f0(sbx.readyS)} s`);
      await login(sbx.url);
      const x = await measureSummary(sbx);
      summary[version] = x;
      log(
        `summary on ${version}: ${x.sum.requests} requests, ${x.sum.bytes} bytes, ${f0(x.sumMs)} ms; export ${x.exp.requests} requests, ${x.exp.bytes} bytes, ${f0(x.expMs)} ms`,
      );
    } finally {
      await sbx.stop();
    }
  }
  return summary;
}

/** The summary section: a month's summary beside the CSV export of the same orders. */
export function summaryReport(summary: Summary, summaryOrders: number): string {
  const runs = (xs: number[]) => xs.map((v) => f0(v)).join(', ');
  const rows: string[] = [];
  const details: string[] = [];
  for (const [version, x] of Object.entries(summary)) {
    const pct = (100 * x.sum.bytes) / x.exp.bytes;
    const ratio = x.sumMs / x.expMs;
    rows.push(
      `| Odoo ${version}: requests | ${x.sum.requests} | ${x.exp.requests} | | ≤ 10 | ${met(x.sum.requests <= 10)} |`,
      `| Odoo ${version}: bytes received | ${x.sum.bytes} | ${x.exp.bytes} | ${pct.toFixed(3)} % | < 1 % | ${met(pct < 1)} |`,
      `| Odoo ${version}: wall time (median) | ${f0(x.sumMs)} ms | ${f0(x.expMs)} ms | ${f3(ratio)} | < 0.2 | ${met(ratio < 0.2)} |`,
    );
    details.push(
      `- Odoo ${version}, every run (ms): summary ${runs(x.runs.summary)}; export ${runs(x.runs.export)}; ${x.groups} days in the summary.${x.note ? ` Its notice: ${x.note.replace(/^posdata: note: /, '')}` : ''}`,
    );
  }
  return `
### posdata summary: a month on ${summaryOrders} sales (${SUMMARY_DAYS} days) against a CSV export of the same orders

Both through a counting HTTP proxy in front of the sandbox, over JSON-RPC: \`posdata summary --from 2000-01-01 --to today --tz UTC --by day --format json\` against \`posdata sales\` with the same range as CSV; ${opts.runs} alternating runs, medians. The requests include those of connecting (the proxy's URL is not the profile's, so the protocol is detected and the user authenticated again).

| | summary | CSV export | summary / export | Goal | |
|---|---|---|---|---|---|
${rows.join('\n')}

${details.join('\n')}
`;
}
