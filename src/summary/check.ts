// --check-odoo: the summary's totals against Odoo's own "Sales Details" report
// (`report.point_of_sale.report_saledetails.get_sale_details`) for the same range, register
// and session. Its figures differ between versions (README, summary); this prints what
// differs, one line each, on stderr: standard output keeps the data.
import type { OdooClient } from '../core/client.js';
import { ConnectionError, PosdataError, ServerError } from '../core/errors.js';
import { totalOf } from './compute.js';
import type { SummaryParams, SummaryResult } from './query.js';

const MODEL = 'report.point_of_sale.report_saledetails';

interface SaleDetails {
  nbr_orders?: number;
  payments?: { name?: string; total?: number }[];
  taxes?: { name?: string; tax_amount?: number }[];
  refund_taxes?: { name?: string; tax_amount?: number }[];
  currency?: { total_paid?: number };
}

const close = (a: number, b: number): boolean => Math.abs(a - b) < 0.005;

export async function checkOdoo(client: OdooClient, r: SummaryResult, p: SummaryParams): Promise<string[]> {
  // Odoo reads its dates as naive UTC and its stop as inclusive.
  const stop = r.range.end ? oneSecondBefore(r.range.end) : false;
  // Named arguments: the same call over JSON-RPC and JSON-2 (which binds them by signature).
  const kwargs = {
    date_start: p.sessionId !== undefined ? false : (r.range.start ?? false),
    date_stop: p.sessionId !== undefined ? false : stop,
    config_ids: p.configId !== undefined ? [p.configId] : false,
    session_ids: p.sessionId !== undefined ? [p.sessionId] : false,
  };
  let d: SaleDetails;
  try {
    d = (await client.executeKw(MODEL, 'get_sale_details', [], kwargs)) as SaleDetails;
  } catch (err) {
    if (err instanceof ServerError && /AccessError|access/i.test(`${err.odooName} ${err.message}`)) {
      return [
        `not compared: this user may not read Odoo's Sales Details (${oneLine(err.message)}); a POS user lacks read access to account.payment`,
      ];
    }
    // No answer in time (a costly call is sent once) is the run's failure: exit 6.
    if (err instanceof ConnectionError) throw err;
    if (err instanceof PosdataError)
      return [`not compared: Odoo's Sales Details failed (${oneLine(err.line())})`];
    throw err;
  }
  const ours = totalOf(r.summary.groups, r.summary.methodKeys);
  const lines: string[] = [];
  const diff = (what: string, odoo: number, mine: number | null, why = ''): void => {
    if (mine === null || close(odoo, mine)) return;
    lines.push(
      `${what}: Odoo ${odoo.toFixed(2)}, posdata ${mine.toFixed(2)} (${(mine - odoo).toFixed(2)})${why}`,
    );
  };
  let compared = 0;
  if (typeof d.nbr_orders === 'number' && r.summary.level === 'order') {
    compared++;
    if (d.nbr_orders !== ours.orders)
      lines.push(
        `orders: Odoo ${d.nbr_orders}, posdata ${ours.orders} (Odoo 18+ leaves out invoiced orders; Odoo counts only the sessions wholly inside the range)`,
      );
  }
  if (Array.isArray(d.payments)) {
    const byName = new Map<string, number>();
    for (const pay of d.payments) {
      const n = typeof pay.name === 'string' ? pay.name : '?';
      byName.set(n, (byName.get(n) ?? 0) + (typeof pay.total === 'number' ? pay.total : 0));
    }
    if (ours.methods) {
      for (const [name, total] of byName) {
        compared++;
        diff(`method ${name}`, total, ours.methods[`method:${name}`] ?? 0);
      }
    }
    compared++;
    diff(
      'total',
      [...byName.values()].reduce((a, b) => a + b, 0),
      ours.total,
      ' (payments)',
    );
  }
  if (Array.isArray(d.taxes)) {
    const sum = (l: SaleDetails['taxes']): number =>
      (l ?? []).reduce((a, t) => a + (typeof t.tax_amount === 'number' ? t.tax_amount : 0), 0);
    const refunds = sum(d.refund_taxes);
    // 17 keeps refund taxes apart with their own sign; add them as refunds (negative).
    compared++;
    diff(
      'tax',
      sum(d.taxes) - Math.abs(refunds),
      ours.tax,
      " (Odoo recomputes each line's tax from its price and rounds per tax; posdata adds up the orders' own amount_tax, which is what was charged)",
    );
  }
  if (compared === 0) return ["not compared: Odoo's Sales Details gave none of the figures posdata knows"];
  return lines.length === 0
    ? [`Odoo's Sales Details agrees (${compared} figure${compared === 1 ? '' : 's'} compared)`]
    : [...lines, `${lines.length} of ${compared} figures differ from Odoo's Sales Details`];
}

function oneSecondBefore(utc: string): string {
  const d = new Date(`${utc.replace(' ', 'T')}Z`);
  d.setUTCSeconds(d.getUTCSeconds() - 1);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

function oneLine(s: string): string {
  const l = s.replace(/\s+/g, ' ').trim();
  return l.length > 120 ? `${l.slice(0, 117)}…` : l;
}
