// What a real shop rings up beside its products (docs/summary.md, "Where each thing goes"):
// tips, gift cards sold, pos_discount's global discount, loyalty rewards and gift cards
// redeemed. Odoo books each as an ordinary order line of a product of its own (the tip
// product, the discount product, a card's product, each reward's discount line product), so
// Sales Details counts them as products and leaves them out of its discounts. The summary
// shows each as a column of its own, read from the lines of those products grouped by the
// order keys: one request, after the products are known (three, once per connection).
import type { OdooClient } from '../core/client.js';
import { say } from '../core/redact.js';
import { listsInStep } from '../read/groups.js';
import { type Acc, type Folder, m2oId, SALES, type SummaryQuery } from './folder.js';
import { type Group, type GroupingApi, prefixDomain } from './grouping.js';

/** The parts that lower an order below what was rung up: in `discounts`, as positive amounts. */
export const isLowering = (key: string): boolean =>
  key === 'global_discounts' || key === 'gift_cards_redeemed' || key.startsWith('reward:');

/** The parts' columns in the contract's order: the discounts first, then what gross holds. */
export function partOrder(keys: Iterable<string>): string[] {
  const rank = (k: string): number =>
    k === 'global_discounts'
      ? 0
      : k.startsWith('reward:')
        ? 1
        : k === 'gift_cards_redeemed'
          ? 2
          : k === 'gift_cards_sold'
            ? 3
            : 4;
  return [...new Set(keys)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The registers' fields that name the tip and the global discount products, where installed. */
const CONFIG_FIELDS = ['iface_tipproduct', 'tip_product_id', 'discount_product_id'];

/** Programmes whose cards hold money owed back in goods: sold and spent as gift cards. */
const STORED_VALUE = new Set(['gift_card', 'ewallet']);

/**
 * Each special product's column: `tips` (a register's tip product, where tips are on),
 * `global_discounts` (pos_discount's product), `gift_cards_sold` (a gift card programme's
 * product), `gift_cards_redeemed` (its reward's line product) and `reward:<programme>` (any
 * other programme's reward line product). Empty where none of these modules is installed.
 */
export function shopProducts(client: OdooClient, api: GroupingApi): Promise<Map<number, string>> {
  return api.once('shop-products', async () => {
    // Only these four fields' types: the whole of pos.config's fields_get is tens of kilobytes,
    // more than a month's figures.
    const reply = await client.executeKw('pos.config', 'fields_get', [], {
      allfields: [...CONFIG_FIELDS, 'gift_card_settings'],
      attributes: ['type'],
    });
    const fields = reply !== null && typeof reply === 'object' ? reply : {};
    const wanted = CONFIG_FIELDS.filter((f) => f in fields);
    const loyalty = 'gift_card_settings' in fields;
    const [configs, rewards, programs] = await Promise.all([
      wanted.length > 0 ? api.read('pos.config', [], wanted) : [],
      loyalty ? api.read('loyalty.reward', [], ['program_id', 'discount_line_product_id']) : [],
      loyalty ? api.read('loyalty.program', [], ['name', 'program_type', 'trigger_product_ids']) : [],
    ]);
    const kinds = new Map<number, string>();
    const set = (v: unknown, key: string) => {
      const id = m2oId(v);
      if (id !== undefined) kinds.set(id, key);
    };
    for (const c of configs) {
      // The tip product is set on every register of 17; its lines are tips only where tips are on.
      if (c.iface_tipproduct === true) set(c.tip_product_id, 'tips');
      set(c.discount_product_id, 'global_discounts');
    }
    const program = new Map(programs.map((p) => [p.id as number, p]));
    for (const p of programs)
      if (STORED_VALUE.has(String(p.program_type)) && Array.isArray(p.trigger_product_ids))
        for (const id of p.trigger_product_ids) set(id, 'gift_cards_sold');
    for (const r of rewards) {
      const p = program.get(m2oId(r.program_id) ?? 0);
      if (!p) continue;
      set(
        r.discount_line_product_id,
        STORED_VALUE.has(String(p.program_type)) ? 'gift_cards_redeemed' : `reward:${String(p.name)}`,
      );
    }
    return kinds;
  });
}

/**
 * The special lines of the sales orders (not refunds, as `gross` and `discounts`) in the
 * groups of `folder`, by their column. `lineSpecs` are the order keys as the lines' model
 * groups them: through `order_id` on 19, report.pos.order's own fields on 16-18; or, by
 * Odoo 16-18's table or floor (per-order.ts), `order_id` with `accOf` naming each order's group.
 */
export async function foldShopLines(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
  folder: Folder,
  lines: {
    specs: string[];
    reportDomain: (d: typeof q.orderDomain) => typeof q.orderDomain;
    accOf?: (g: Group) => Acc | undefined;
  },
): Promise<void> {
  if (q.shop === false) return;
  const kinds = await shopProducts(client, api);
  if (kinds.size === 0) return;
  const products: typeof q.orderDomain = [['product_id', 'in', [...kinds.keys()]]];
  const [model, domain, amount] = api.paths
    ? [
        'pos.order.line',
        [...prefixDomain([...q.orderDomain, ...SALES], 'order_id.'), ...products],
        'price_subtotal_incl:sum',
      ]
    : [
        'report.pos.order',
        [...lines.reportDomain([...q.orderDomain, ...SALES]), ...products],
        'price_total:sum',
      ];
  const groups = await api.group(model, domain, [...lines.specs, 'product_id'], [amount]);
  for (const g of groups) {
    const key = kinds.get(m2oId(g.values.product_id) ?? 0);
    if (key === undefined) continue;
    const a = lines.accOf ? lines.accOf(g) : folder.at(g, lines.specs);
    if (!a) continue;
    const parts = a.parts ?? new Map<string, number>();
    a.parts = parts;
    // A discount or a card spent is a negative line: shown as the positive amount it took off.
    const v = (g.aggs[amount] ?? 0) * (isLowering(key) ? -1 : 1);
    parts.set(key, (parts.get(key) ?? 0) + v);
  }
}

/** The tipped orders' ids and tips, as arrays in step. */
const TIPPED = ['id:array_agg', 'tip_amount:array_agg'];

/**
 * The tips of the sales orders by the method that paid them, into the groups of `folder`
 * (`--by method`): Odoo adds a tip to its order's first payment that is not change (17's
 * set_tip, 19's tip screen: `payment_ids[0]`), so a tip is that payment's method's. Two
 * requests at once where a register takes tips: the tipped orders' tip_amount, and their
 * payments grouped by the keys and order with each group's first payment id.
 */
export async function foldTipsByMethod(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
  folder: Folder,
  specs: string[],
): Promise<void> {
  if (q.shop === false) return;
  const kinds = await shopProducts(client, api);
  if (![...kinds.values()].includes('tips')) return;
  const tipped = [...q.orderDomain, ...SALES, ['tip_amount', '>', 0] as [string, string, number]];
  const [tips, payments] = await Promise.all([
    // Grouped, as arrays in step (one group per company): a read_group is whole where a
    // server caps search_read, which cut a month's tipped orders to its first few.
    api.group('pos.order', tipped, ['company_id'], TIPPED),
    api.group(
      'pos.payment',
      [...prefixDomain(tipped, 'pos_order_id.'), ['is_change', '=', false]],
      [...specs, 'pos_order_id'],
      ['id:min'],
    ),
  ]);
  const first = new Map<number, Group>();
  for (const g of payments) {
    const o = m2oId(g.values.pos_order_id);
    const seen = o === undefined ? undefined : first.get(o);
    if (o !== undefined && (!seen || (g.aggs['id:min'] ?? 0) < (seen.aggs['id:min'] ?? 0))) first.set(o, g);
  }
  for (const t of tips) {
    const [ids = [], amounts = []] = listsInStep(t, TIPPED, say`the tipped orders and their tips`);
    for (const [i, id] of ids.entries()) {
      const g = first.get(id as number);
      if (!g) continue;
      const a = folder.at(g, specs);
      const parts = a.parts ?? new Map<string, number>();
      a.parts = parts;
      parts.set('tips', (parts.get('tips') ?? 0) + Number(amounts[i]));
    }
  }
}
