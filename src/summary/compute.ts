// The summary's figures: a handful of grouping calls over pos.order, pos.order.line and
// pos.payment, folded into one row per group of --by keys. No terminal knowledge here.
//
// Definitions (docs/summary.md): counted orders are those in state paid, done or invoiced;
// a refund is a counted order with a negative total. All amounts are tax included except
// `net`, and are the orders' as Odoo rounds each order. `discounts` = Σ over discounted sales
// lines of price_subtotal_incl × d / (100 − d), rounded once per business day; `gross` = the
// sales orders' total + discounts; so gross − discounts + refunds = total, and net + tax = total.
import { COUNTED_STATES } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import { roundAt } from '../records/normalize.js';
import { byLine } from './by-line.js';
import { byOrder } from './by-order.js';
import { byPayment } from './by-payment.js';
import { type Figures, figureValues } from './figures.js';
import {
  type Acc,
  type Cell,
  type Folder,
  Found,
  type Gathered,
  type KeyValue,
  LINE_SPEC,
  type SummaryQuery,
} from './folder.js';
import type { GroupingApi } from './grouping.js';
import { type Key, type Level, levelOf } from './keys.js';
import { isLowering, partOrder } from './shop.js';

export type { Figures };

export { COUNTED_STATES };

export interface SummaryGroup {
  keys: KeyValue[];
  figures: Figures;
}

export interface Summary {
  keys: Key[];
  level: Level;
  groups: SummaryGroup[];
  /** The `method:<name>` columns, in the order of the methods' ids. */
  methodKeys: string[];
  /** The shop's part columns found in the range (shop.ts), in their order; by an order key (by method: tips). */
  partKeys: string[];
  /** The payment method id of each of `methodKeys`. */
  methodIds: number[];
  /** Each method's name, by id. */
  methodNames: Map<number, string>;
  /** What could not be computed, for a notice on stderr (Odoo's values in holes). */
  notes: Said[];
  /** The decimals of the company's currency: every amount is rounded to them. */
  digits: number;
}

/** The pos.order domain of the summary: counted states, the range, a register, a session. */
export function ordersDomain(range: Domain, configId?: number, sessionId?: number): Domain {
  const d: Domain = [['state', 'in', COUNTED_STATES], ...range];
  if (configId !== undefined) d.push(['config_id', '=', configId]);
  if (sessionId !== undefined) d.push(['session_id', '=', sessionId]);
  return d;
}

export async function computeSummary(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
): Promise<Summary> {
  const level = levelOf(q.keys);
  const orderKeys = q.keys.filter((k) => k !== 'method' && LINE_SPEC[k] === undefined);
  if (!api.paths && level !== 'order' && orderKeys.some((k) => !(level === 'payment' && k === 'session'))) {
    throw new UsageError(
      say`--by ${own(q.keys.join(','))}: Odoo before 19 cannot group ${level === 'line' ? own('order lines') : own('payments')} by their order's ${own(orderKeys.join(', '))}`,
      say`group by ${level === 'line' ? own('product, category or tax') : own('method')} alone, or by ${own(orderKeys.join(', '))} alone`,
    );
  }
  const found = new Found();
  if (q.keys.includes('floor')) await readFloors(api, found);
  const names = registerNames(api, q.keys);
  const gathered =
    level === 'order'
      ? await byOrder(client, api, q, found, names.ask)
      : level === 'line'
        ? await byLine(client, api, q, found)
        : await byPayment(client, api, q, found);
  await names.put(gathered.folder);
  const digits = await q.digits;
  const {
    groups,
    methodIds,
    methodKeys: keys,
    partKeys,
  } = groupsOf(level, gathered, found.methodNames, digits, q.shop !== 'beside');
  return {
    keys: q.keys,
    level,
    groups,
    methodKeys: keys,
    partKeys,
    methodIds,
    methodNames: found.methodNames,
    notes: found.notes,
    digits,
  };
}

/** Each table's floor (pos_restaurant), archived tables too: the groups by table are folded by it. */
async function readFloors(api: GroupingApi, found: Found): Promise<void> {
  for (const t of await api.read('restaurant.table', [], ['floor_id'])) {
    const f = t.floor_id;
    if (typeof t.id === 'number' && Array.isArray(f) && typeof f[0] === 'number')
      found.floors.set(t.id, [f[0], String(f[1])]);
  }
}

/** The registers' names of a summary by register, read once the orders' groups say which (RegisterNames.ask). */
interface RegisterNames {
  /**
   * Asks the names of the registers in `folder` now: byOrder calls it once the orders are
   * grouped, beside the lines' and payments' requests instead of after them (a round trip less:
   * a summary by register waited for every other answer before asking the names).
   */
  ask(folder: Folder): void;
  /** Each register key named, as reconcile and the tables show it; a register not asked before is read here. */
  put(folder: Folder): Promise<void>;
}

/**
 * A register by its name, as reconcile and the tables show it: on 16/17 the relation's label
 * carries the session's user (`Shop (Mitchell Admin)`).
 */
function registerNames(api: GroupingApi, keys: Key[]): RegisterNames {
  const ri = keys.indexOf('register');
  // In id order: a report's groupings name the same registers in one request (the memo).
  const idsOf = (folder: Folder): number[] =>
    [...new Set([...folder.accs.values()].map((a) => a.keys[ri]?.cells.config_id))]
      .filter((x): x is number => typeof x === 'number')
      .sort((a, b) => a - b);
  const read = async (ids: number[]): Promise<Map<unknown, unknown>> =>
    new Map((await api.byIds('pos.config', ids, ['name'])).map((c) => [c.id, c.name]));
  let asked: { ids: Set<number>; names: Promise<Map<unknown, unknown>> } | undefined;
  return {
    ask(folder) {
      if (ri < 0) return;
      const ids = idsOf(folder);
      asked = { ids: new Set(ids), names: read(ids) };
      // Awaited in put; a run that fails before it must not leave a rejection unheard.
      asked.names.catch(() => undefined);
    },
    async put(folder) {
      if (ri < 0) return;
      const ids = idsOf(folder);
      const missing = asked ? ids.filter((id) => !asked?.ids.has(id)) : ids;
      const names = new Map(asked ? await asked.names : []);
      if (missing.length > 0) for (const [id, n] of await read(missing)) names.set(id, n);
      for (const a of folder.accs.values()) {
        const kv = a.keys[ri] as KeyValue;
        const n = names.get(kv.cells.config_id as number);
        if (typeof n === 'string') {
          kv.cells.register = n;
          kv.sort = n;
        }
      }
    },
  };
}

/**
 * The groups' figures in the currency's smallest unit (cents for EUR), each column adding up
 * to the range's own (apportioned), the payment methods as `method:<name>` columns, the
 * groups in key order. Money is the orders' as Odoo rounds each of them: by line keys the
 * lines' amounts (which Odoo keeps in fractions of a cent) are brought to the orders' totals.
 * Discounts are rounded once per business day, the groups of a day splitting its cents, so a
 * day has one figure whatever the range or the grouping. gross = sales + discounts, where the
 * sales are the sales orders' totals: gross − discounts + refunds = total, to the cent.
 */
function groupsOf(
  level: Level,
  { folder, dayAnchors, orders }: Gathered,
  methodNames: Map<number, string>,
  digits: number,
  lowering: boolean,
): { groups: SummaryGroup[]; methodIds: number[]; methodKeys: string[]; partKeys: string[] } {
  const apportioned = (values: (number | null)[], exact?: number) => inUnits(values, digits, exact);
  const round = (v: number): number => roundAt(v, digits);
  const methodIds = [...methodNames.keys()].sort((a, b) => a - b);
  const keyOf = methodKeys(methodIds, methodNames);
  const accs = [...folder.accs.values()];
  const partKeys = partOrder(accs.flatMap((a) => [...(a.parts?.keys() ?? [])]));
  const parts = partKeys.map((k) => apportioned(accs.map((a) => a.parts?.get(k) ?? 0)));
  // Global discounts, rewards and cards spent took the orders below what was rung up: discounts
  // (not where they are shown beside Sales Details' figures, which leaves them out: `lowering`).
  const discounts = discountsOf(level, accs, dayAnchors, digits).map((d, i) =>
    d === null
      ? null
      : round(partKeys.reduce((s, k, j) => s + (lowering && isLowering(k) ? (parts[j]?.[i] ?? 0) : 0), d)),
  );
  const refunds = apportioned(
    accs.map((a) => a.refunds),
    orders?.refunds,
  );
  const total = apportioned(
    accs.map((a) => a.total),
    orders?.total,
  );
  const tax = apportioned(
    accs.map((a) => a.tax),
    orders?.tax,
  );
  const net = orders
    ? accs.map((a, i) => (a.net === null || tax[i] == null ? null : round((total[i] ?? 0) - (tax[i] ?? 0))))
    : apportioned(accs.map((a) => a.net));
  const gross = accs.map((a, i) => {
    const d = discounts[i];
    return a.salesIncl === null || d == null ? null : round((total[i] ?? 0) - (refunds[i] ?? 0) + d);
  });
  const hasMethods = accs.map(
    (a) => a.methods !== null || (level !== 'line' && methodIds.length > 0 && a.salesIncl !== null),
  );
  const perMethod = methodIds.map((id) =>
    apportioned(accs.map((a, i) => (hasMethods[i] ? (a.methods?.get(id) ?? 0) : null))),
  );
  const groups: SummaryGroup[] = accs.map((a, i) => {
    let methods: Record<string, number> | null = null;
    if (hasMethods[i]) {
      methods = {};
      for (const [j, id] of methodIds.entries()) methods[keyOf.get(id) as string] = perMethod[j]?.[i] ?? 0;
    }
    return {
      keys: a.keys,
      figures: {
        orders: a.orders,
        items: a.items === null ? null : roundAt(a.items, null),
        gross: gross[i] ?? null,
        discounts: discounts[i] ?? null,
        refundCount: a.refundCount,
        refunds: refunds[i] ?? 0,
        net: net[i] ?? null,
        tax: tax[i] ?? null,
        total: total[i] ?? 0,
        methods,
        parts: level !== 'line' ? Object.fromEntries(partKeys.map((k, j) => [k, parts[j]?.[i] ?? 0])) : null,
      },
    };
  });
  groups.sort(compareGroups);
  return { groups, methodIds, methodKeys: methodIds.map((id) => keyOf.get(id) as string), partKeys };
}

/**
 * The groups' discounts in the currency's unit. Each business day's discount (`anchors`) is
 * rounded once; by an order key the groups of a day split that day's cents, by a line key the
 * groups split the days' rounded figures added up. Without anchors, the range's sum rounded once.
 */
function discountsOf(
  level: Level,
  accs: Acc[],
  anchors: Map<string, number> | undefined,
  digits: number,
): (number | null)[] {
  const values = accs.map((a) => a.discounts);
  if (!anchors) return inUnits(values, digits);
  if (level === 'line') {
    const days = [...anchors.values()].reduce((s, v) => s + roundAt(v, digits), 0);
    return inUnits(values, digits, days);
  }
  const out: (number | null)[] = values.map((v) => (v === null ? null : 0));
  for (const [day, anchor] of anchors) {
    const share = inUnits(
      accs.map((a) => (a.discounts === null ? null : (a.dayDiscounts.get(day) ?? 0))),
      digits,
      anchor,
    );
    for (const [i, c] of share.entries()) if (c !== null) out[i] = roundAt((out[i] ?? 0) + c, digits);
  }
  return out;
}

/**
 * One figure of every group in the currency's smallest unit (a cent for EUR, a fils for KWD),
 * adding up to the range's figure rounded once, whatever the grouping: amounts with fractions
 * of a cent (discounts, a line's amount) rounded group by group would make a day's total a
 * cent apart between `--by register` and `--by hour`. Largest remainder: each group gets its
 * amount's whole cents, and the cents left go to the largest fractions, so a group is within a
 * cent of its own amount. With `exact` (the lines' own sum, where the groups' amounts are
 * report.pos.order's estimates, 16-18) the estimates are scaled to it first. Groups without
 * the figure (null) stay null.
 */
function inUnits(values: (number | null)[], digits: number, exact?: number): (number | null)[] {
  const at = values.flatMap((v, i) => (v === null ? [] : [i]));
  const present = at.map((i) => values[i] ?? 0);
  const sum = present.reduce((a, b) => a + b, 0);
  const total = exact ?? sum;
  const scaled =
    exact !== undefined && Math.abs(sum) > 1e-9 ? present.map((v) => (v * exact) / sum) : present;
  const rounded = apportion(scaled, total, digits);
  const out: (number | null)[] = values.map(() => null);
  for (const [j, i] of at.entries()) out[i] = rounded[j] ?? 0;
  return out;
}

/**
 * Amounts rounded to `digits` decimals (cents at two) so that they add up to `total` rounded
 * once (largest remainder).
 */
export function apportion(values: number[], total: number, digits = 2): number[] {
  const unit = 10 ** digits;
  const cents = values.map((v) => v * unit);
  // 1e-6 of a cent: what floating point adds to a sum of cents is not a fraction of one.
  const floors = cents.map((c) => Math.floor(c + 1e-6));
  let left = Math.round(total * unit) - floors.reduce((a, b) => a + b, 0);
  const fraction = cents.map((c, i) => c - (floors[i] as number));
  const order = fraction
    .map((_, i) => i)
    .sort((a, b) => (fraction[b] as number) - (fraction[a] as number) || a - b);
  // Float noise may leave a cent too many: taken from the smallest fractions.
  if (left < 0) order.reverse();
  for (let k = 0; left !== 0 && order.length > 0; k = (k + 1) % order.length) {
    const i = order[k] as number;
    const step = left > 0 ? 1 : -1;
    floors[i] = (floors[i] as number) + step;
    left -= step;
  }
  return floors.map((c) => c / unit);
}

function compareGroups(a: SummaryGroup, b: SummaryGroup): number {
  for (let i = 0; i < a.keys.length; i++) {
    const x = a.keys[i]?.sort ?? '';
    const y = b.keys[i]?.sort ?? '';
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x).localeCompare(String(y));
  }
  return 0;
}

/** `method:<name>`; two methods with one name (two companies) keep apart by id. */
function methodKeys(ids: number[], names: Map<number, string>): Map<number, string> {
  const count = new Map<string, number>();
  for (const id of ids) count.set(names.get(id) ?? '', (count.get(names.get(id) ?? '') ?? 0) + 1);
  return new Map(
    ids.map((id) => {
      const n = names.get(id) ?? `#${id}`;
      return [id, (count.get(n) ?? 0) > 1 ? `method:${n} #${id}` : `method:${n}`];
    }),
  );
}

/** The N groups with the largest total, in that order. */
export function topGroups(groups: SummaryGroup[], n: number | undefined): SummaryGroup[] {
  if (n === undefined) return groups;
  return [...groups].sort((a, b) => b.figures.total - a.figures.total).slice(0, n);
}

export type SummaryRow = Record<string, Cell>;

/** A group as json, ndjson and csv carry it. */
export function toRow(g: SummaryGroup, s: Pick<Summary, 'methodKeys' | 'partKeys' | 'digits'>): SummaryRow {
  const row: SummaryRow = {};
  for (const k of g.keys) Object.assign(row, k.cells);
  const f = g.figures;
  Object.assign(row, figureValues(f, s.digits));
  for (const k of s.partKeys) row[k] = f.parts ? (f.parts[k] ?? 0) : null;
  for (const k of s.methodKeys) row[k] = f.methods ? (f.methods[k] ?? 0) : null;
  return row;
}

/** The totals of several groups (the table's last row, --check-odoo). */
export function totalOf(
  groups: SummaryGroup[],
  { methodKeys, partKeys, digits }: Pick<Summary, 'methodKeys' | 'partKeys' | 'digits'>,
): Figures {
  const round = (v: number): number => roundAt(v, digits);
  const nsum = (pick: (f: Figures) => number | null): number | null =>
    groups.some((g) => pick(g.figures) === null)
      ? null
      : round(groups.reduce((a, g) => a + (pick(g.figures) ?? 0), 0));
  const methods: Record<string, number> | null = groups.some((g) => g.figures.methods === null) ? null : {};
  if (methods)
    for (const k of methodKeys)
      methods[k] = round(groups.reduce((a, g) => a + (g.figures.methods?.[k] ?? 0), 0));
  const parts: Record<string, number> | null = groups.some((g) => g.figures.parts === null) ? null : {};
  if (parts)
    for (const k of partKeys) parts[k] = round(groups.reduce((a, g) => a + (g.figures.parts?.[k] ?? 0), 0));
  return {
    orders: groups.reduce((a, g) => a + g.figures.orders, 0),
    items: groups.some((g) => g.figures.items === null)
      ? null
      : roundAt(
          groups.reduce((a, g) => a + (g.figures.items ?? 0), 0),
          null,
        ),
    gross: nsum((f) => f.gross),
    discounts: nsum((f) => f.discounts),
    refundCount: groups.reduce((a, g) => a + g.figures.refundCount, 0),
    refunds: round(groups.reduce((a, g) => a + g.figures.refunds, 0)),
    net: nsum((f) => f.net),
    tax: nsum((f) => f.tax),
    total: round(groups.reduce((a, g) => a + g.figures.total, 0)),
    methods,
    parts,
  };
}
