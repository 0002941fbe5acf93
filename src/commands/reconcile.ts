// `posdata reconcile`: flags → the closed sessions of a range → figures per session →
// table, json, ndjson or csv on a sink → exit 7 with --fail-on-difference.
import { command } from '../cli/command.js';
import { COMPANY, group } from '../cli/flags.js';
import { tableLook, writeOutput } from '../cli/output.js';
import * as period from '../cli/period.js';
import { number } from '../cli/values.js';
import { DifferenceError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { FieldMap } from '../core/types.js';
import { zoneFor } from '../query/zone.js';
import { companyLabel } from '../read/companies.js';
import { beyond, type OutRow, type SessionRange, sessionFields, toRow } from '../reconcile/compute.js';
import { reconcileParts } from '../reconcile/parts.js';
import { signed } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';

export interface ReconcileOptions extends SessionRange, period.PeriodOptions {
  tolerance: number;
}

export const reconcile = command({
  name: 'reconcile',
  flags: [
    group('own', [
      ...period.SESSION_RANGE,
      period.BUSINESS_TZ,
      {
        spec: '--tolerance <amount>',
        description: 'differences up to this are fine',
        parse: number('--tolerance', 0),
        default: 0.01,
      },
      { spec: '--fail-on-difference', description: 'exit 7 when a difference exceeds the tolerance' },
      COMPANY,
    ]),
    ...period.REPORT_FLAGS,
  ],
  examples: [
    'posdata reconcile --date yesterday',
    'posdata reconcile --from 2026-11-01 --to 2026-11-30 --format csv -o november.csv',
    'posdata reconcile --date yesterday --fail-on-difference --quiet || mail -s "cash difference" boss@example.com',
  ],
  options(f, _args, { io }): ReconcileOptions {
    return period.checkedRange({ ...period.periodOptions(f, io), tolerance: f.tolerance });
  },
  async run(o, ctx) {
    const { io } = ctx;
    // The business day is the shop's.
    const { session, zone, domain } = await period.sessionsAndZone(o, ctx);
    const parts = await reconcileParts(session.client, domain, ctx.inChain === true);
    if (parts.every((p) => p.rec.sessions.length === 0))
      await (await import('../read/exists.js')).mustExist(session.client, o);
    const adjusted = parts.flatMap((p) => p.rec.adjusted);
    if (adjusted.length > 0 && !io.quiet) {
      const e = adjusted[0];
      io.err.line(
        say`posdata: note: for ${adjusted.length} session${own(adjusted.length === 1 ? '' : 's')} (e.g. ${e?.session}) expected cash is Odoo's theoretical balance, not opening + cash taken + cash moves as recorded; cash moves shows the gap (docs/reconcile.md, expected_cash)`,
      );
    }
    const split = parts.length > 1 || parts[0]?.company !== undefined;
    if (split && !io.quiet)
      io.err.line(
        say`posdata: note: sessions per company: ${own(parts.map((p) => (p.company ? companyLabel(p.company) : '')).join('; '))}; no figure adds two currencies`,
      );
    const { format, file } = o.output;
    const render = async (sink: Sink): Promise<undefined> => {
      if (format === 'table') {
        const { renderReconcileTable } = await import('../reconcile/table.js');
        for (const [i, part] of parts.entries()) {
          if (split)
            await sink.write(`${i > 0 ? '\n' : ''}${part.company ? companyLabel(part.company) : ''}\n`);
          await sink.write(
            renderReconcileTable(part.rec, {
              ...tableLook(io, file !== undefined),
              tz: zone,
              tolerance: o.tolerance,
            }),
          );
        }
      } else {
        const lead = split ? ['company_id', 'company', 'currency'] : [];
        const fields: string[] = [...lead];
        const defs: FieldMap = {
          company_id: { type: 'integer' },
          company: { type: 'char' },
          currency: { type: 'char' },
        };
        const rows: OutRow[] = [];
        for (const part of parts) {
          const f = sessionFields(part.rec);
          for (const k of f.fields) if (!fields.includes(k)) fields.push(k);
          Object.assign(defs, f.defs);
          for (const s of part.rec.sessions) {
            const row = toRow(s, part.rec.methodKeys, zoneFor('data', o.tz));
            rows.push(
              split
                ? {
                    company_id: part.company?.id ?? null,
                    company: part.company?.name ?? null,
                    currency: part.company?.currency ?? null,
                    ...row,
                  }
                : row,
            );
          }
        }
        // Another company's method columns are empty, never 0 of a wrong currency.
        for (const r of rows) for (const k of fields) if (!(k in r)) r[k] = null;
        await period.writeReportRows(io, o.output, sink, { fields, defs, zone, noun: 'sessions' }, rows);
      }
      return undefined;
    };
    // A month of sessions is a long table: paged on a terminal, as the lists are.
    await writeOutput(ctx, o.output.path, render, format === 'table');
    const count = parts.reduce((a, p) => a + p.rec.sessions.length, 0);
    if (file !== undefined && !io.quiet && io.err.isTTY)
      io.err.line(say`posdata: wrote ${count} sessions to ${file}`);

    if (o.failOnDifference) {
      const differing = parts.flatMap((p) =>
        p.rec.sessions.filter((s) => beyond(s.difference, o.tolerance)).map((s) => ({ s, p })),
      );
      if (differing.length > 0) {
        const worst = differing.reduce((a, b) =>
          Math.abs(b.s.difference) > Math.abs(a.s.difference) ? b : a,
        );
        const d = worst.s.difference;
        const cur = worst.p.company ? ` ${worst.p.company.currency}` : '';
        throw new DifferenceError(
          say`${differing.length} of ${count} sessions ${differing.length === 1 ? own('differs') : own('differ')} by more than ${o.tolerance} (largest ${signed(d, worst.p.rec.moneyDigits)}${own(cur)} in ${worst.s.session}, ${worst.s.register})`,
          say`check the counted cash of those sessions`,
        );
      }
    }
  },
});

/** One company's sessions (or, in one currency, every company's as one). */
