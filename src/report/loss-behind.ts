// The orders behind each marked loss figure (loss.ts), read once the marks are known: which
// ones is chosen from what the figures read, then they are read whole in one request.
import type { OdooClient } from '../core/client.js';
import type { Domain, OdooRecord } from '../core/types.js';
import { readWhole } from '../read/whole.js';
import { roundAt } from '../records/normalize.js';
import { orDomains } from '../summary/grouping.js';
import { m2o } from './loss-reads.js';
import type { LossRow, Metric } from './loss-rows.js';

/** How many orders a marked figure lists. */
export const LISTED = 25;

/** The rows of one key, with what each figure needs to list the orders behind it once marked. */
export interface Built {
  rows: LossRow[];
  key: 'cashier' | 'register';
  field: string;
  refunds: Map<LossRow, OdooRecord[]>;
  discounts: Map<LossRow, number[]>;
  quick: Map<LossRow, { id: number; minutes: number }[]>;
}

/**
 * The orders behind each marked figure, LISTED of them at most: the largest refunds (and the
 * quick ones) of a row marked for refunds, its largest discounts, its largest cancelled orders.
 * Which ones is known from what was read for the figures (the cancelled ones of the marked rows
 * in one light read); the orders listed are then read whole in one request.
 */
export async function listBehind(
  client: OdooClient,
  built: Built[],
  c: {
    range: Domain;
    who: string;
    digits: number;
    amount: (o: OdooRecord) => number;
    perOrder: Map<number, number>;
    /** A register by its own name, from an order's config_id. */
    registerName: (v: unknown) => string;
  },
): Promise<void> {
  const marked = (m: Metric) =>
    built.flatMap((b) => b.rows.filter((r) => r.marks.includes(m)).map((r) => ({ b, r })));
  // The cancelled orders of the rows marked for them: their amounts only, to pick the largest.
  const cancelledRows = marked('cancelled_share');
  const cancelled = await cancelledOf(client, cancelledRows, c);
  const wanted: {
    r: LossRow;
    list: 'refunds' | 'cancelled' | 'discounts' | 'quick';
    id: number;
    detail?: number;
  }[] = [];
  const top = <T>(xs: T[], key: (x: T) => number): T[] =>
    xs
      .map((v, i) => ({ v, i, k: key(v) }))
      .sort((a, b) => a.k - b.k || a.i - b.i)
      .slice(0, LISTED)
      .map((e) => e.v);
  for (const { b, r } of marked('refund_share'))
    for (const o of top(b.refunds.get(r) ?? [], c.amount)) wanted.push({ r, list: 'refunds', id: o.id });
  for (const { b, r } of marked('quick_share'))
    for (const q of top(b.quick.get(r) ?? [], (q) => q.minutes))
      wanted.push({ r, list: 'quick', id: q.id, detail: q.minutes });
  for (const { b, r } of marked('discount_share'))
    for (const id of top(b.discounts.get(r) ?? [], (id) => -roundAt(c.perOrder.get(id) ?? 0, c.digits)))
      wanted.push({ r, list: 'discounts', id, detail: c.perOrder.get(id) ?? 0 });
  for (const { b, r } of cancelledRows)
    for (const o of top(
      cancelled.filter((o) => (m2o(o[b.field])?.[0] ?? null) === r.id),
      (o) => -c.amount(o),
    ))
      wanted.push({ r, list: 'cancelled', id: o.id });
  if (wanted.length === 0) return;
  const orders = new Map(
    (
      await client.read(
        'pos.order',
        [...new Set(wanted.map((w) => w.id))],
        ['name', 'date_order', 'amount_total', 'config_id'],
      )
    ).map((o) => [o.id, o]),
  );
  for (const w of wanted) {
    const o = orders.get(w.id);
    if (!o) continue;
    w.r.behind[w.list].push({
      id: o.id,
      ticket: String(o.name),
      time: String(o.date_order),
      amount: c.amount(o),
      register: c.registerName(o.config_id),
      ...(w.detail === undefined ? {} : { detail: roundAt(w.detail, c.digits) }),
    });
  }
}

/**
 * The cancelled orders of the rows marked for them: their amounts only, to pick the largest.
 * Whole where each marked row has as many as its cancelled figure counts (read already): no
 * count is asked; behind a server that caps search_read the rest is read in pages.
 */
async function cancelledOf(
  client: OdooClient,
  cancelledRows: { b: Built; r: LossRow }[],
  c: { range: Domain; who: string },
): Promise<OdooRecord[]> {
  if (cancelledRows.length === 0) return [];
  const byKey = (field: string, ids: (number | null)[]): Domain[] => {
    const set = ids.filter((i): i is number => i !== null);
    return [
      ...(set.length > 0 ? [[[field, 'in', set]] as Domain] : []),
      ...(ids.includes(null) ? [[[field, '=', false]] as Domain] : []),
    ];
  };
  const domain: Domain = [
    ['state', '=', 'cancel'],
    ...c.range,
    ...orDomains(
      [c.who, 'config_id'].flatMap((f) =>
        byKey(
          f,
          cancelledRows.filter(({ b }) => b.field === f).map(({ r }) => r.id),
        ),
      ),
    ),
  ];
  return readWhole(client, 'pos.order', domain, {
    fields: ['amount_total', c.who, 'config_id'],
    whole: (got) =>
      cancelledRows.every(
        ({ b, r }) => got.filter((o) => (m2o(o[b.field])?.[0] ?? null) === r.id).length >= r.cancelled,
      ),
  });
}
