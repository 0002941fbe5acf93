// The one catalog of what posdata reads from Odoo: a row per resource, with its model and
// what each use makes of it. `list`: the list commands (posdata sales, ...), the HTTP service
// and its OpenAPI document are generated from it. `sync`: the tables `posdata sync` loads,
// parents before their children, so a warehouse query that joins them after a sync finds
// both. A name means one thing throughout: `lines` are pos.order.line, the lines of one
// ticket for `posdata lines ID`, all of them for a sync. Adding a resource is a row.
import type { Domain, FieldDef, FieldMap } from '../core/types.js';

export type ResourceName =
  | 'configs'
  | 'sales'
  | 'lines'
  | 'refunds'
  | 'cancellations'
  | 'closures'
  | 'payments'
  | 'products';

export type Filter = 'config' | 'session' | 'state' | 'time';

/** What the list commands and the HTTP service make of a resource. */
export interface ListFacet {
  summary: string;
  /** The spec's fixed filter; may depend on which fields the server has (Odoo version). */
  fixedDomain: (fields: FieldMap) => Domain;
  defaultFields: string[];
  /** The field --from/--to filter. */
  timeField?: string;
  /** Field each filter flag applies to. */
  filterFields: Partial<Record<Filter, string>>;
  /**
   * Filters of the command only, on a path through a relation (lines: through their
   * ticket, `posdata lines --from yesterday`); the HTTP path of one ticket's lines takes none.
   */
  rangeFields?: Partial<Record<Filter, string>>;
  /** Supports --checkpoint (incremental by write_date, id). */
  checkpoint: boolean;
  /** Summed in the table's closing line. */
  sumField?: string;
  /** Columns a table shows on a narrow terminal, most important first. */
  tableColumns: string[];
  /** The REST-like path of the spec (section 4). */
  path: string;
  /** Real examples for --help. */
  examples: string[];
}

/** A resource as the list commands and the HTTP service read it. */
export interface Resource extends ListFacet {
  name: ResourceName;
  model: string;
}

export type SyncName =
  | 'configs'
  | 'payment_methods'
  | 'sessions'
  | 'sales'
  | 'lines'
  | 'payments'
  | 'products';

/**
 * What `posdata sync` makes of a resource: its stored fields only. A computed field that Odoo
 * does not store changes without moving write_date, so an incremental sync could not keep it
 * current.
 */
export interface SyncFacet {
  /** Columns by default (those the server has); `--fields` adds more. */
  defaultFields: string[];
  /**
   * Odoo has no company record rule on the model (16-19 rule pos.order, not its lines): a
   * read with the run's companies answers every company's records, so the run asks for its
   * companies' own by company_id (companyScope).
   */
  noCompanyRule?: true;
}

/** A resource as `posdata sync` loads it. */
export interface SyncResource extends SyncFacet {
  name: SyncName;
  model: string;
}

interface Row {
  name: ResourceName | SyncName;
  model: string;
  list?: ListFacet;
  sync?: SyncFacet;
}

const STAMPS = ['create_date', 'write_date'];

/** A ticket line's columns: what `lines` shows, and the first of what sync stores. */
const LINE_FIELDS = [
  'id',
  'order_id',
  'product_id',
  'full_product_name',
  'qty',
  'price_unit',
  'discount',
  'price_subtotal',
  'price_subtotal_incl',
];

const ORDER_STATE_HELP = 'draft, paid, done, cancel, invoiced (16-18)';

/** An order list by its date, per register and session, checkpointed, summed by its total (refunds, cancellations). */
function ordersByDate() {
  return {
    timeField: 'date_order',
    filterFields: { config: 'config_id', session: 'session_id', time: 'date_order' },
    checkpoint: true,
    sumField: 'amount_total',
  };
}

/** A register and the state of its current (or last) session. */
const REGISTER_COLUMNS = [
  'id',
  'name',
  'current_session_id',
  'current_session_state',
  'last_session_closing_date',
  'last_session_closing_cash',
];

/** The orders that are sales: what posdata summary counts and a sales table totals. */
export const COUNTED_STATES = ['paid', 'done', 'invoiced'];

const CATALOG: Row[] = [
  {
    name: 'configs',
    model: 'pos.config',
    list: {
      summary: 'Registers (pos.config) and their current session',
      fixedDomain: () => [],
      defaultFields: [...REGISTER_COLUMNS, 'payment_method_ids'],
      filterFields: {},
      checkpoint: false,
      // A table shows a register's state; its payment methods' ids say nothing to a reader.
      tableColumns: [...REGISTER_COLUMNS],
      path: '/api/v1/pos/configs',
      examples: ['posdata configs', 'posdata configs --format json | jq -r ".[].name"'],
    },
    sync: {
      defaultFields: ['id', 'name', 'active', 'payment_method_ids', 'company_id', 'currency_id', ...STAMPS],
    },
  },
  {
    name: 'payment_methods',
    model: 'pos.payment.method',
    sync: {
      defaultFields: ['id', 'name', 'is_cash_count', 'active', 'company_id', ...STAMPS],
    },
  },
  {
    name: 'sessions',
    model: 'pos.session',
    sync: {
      defaultFields: [
        'id',
        'name',
        'config_id',
        'user_id',
        'state',
        'start_at',
        'stop_at',
        'cash_register_balance_start',
        'cash_register_balance_end_real',
        'cash_real_transaction',
        // A rescue session (16/17): Odoo's home for orders that reached it after their session closed.
        'rescue',
        'company_id',
        'currency_id',
        ...STAMPS,
      ],
    },
  },
  {
    name: 'sales',
    model: 'pos.order',
    list: {
      summary: 'Sales tickets (pos.order)',
      fixedDomain: () => [],
      defaultFields: [
        'id',
        'name',
        'date_order',
        'amount_total',
        'amount_paid',
        'amount_tax',
        'state',
        'config_id',
        'session_id',
        'payment_ids',
      ],
      timeField: 'date_order',
      filterFields: { config: 'config_id', session: 'session_id', state: 'state', time: 'date_order' },
      checkpoint: true,
      sumField: 'amount_total',
      tableColumns: [
        'id',
        'name',
        'date_order',
        'amount_total',
        'state',
        'config_id',
        'amount_tax',
        'amount_paid',
      ],
      path: '/api/v1/sales',
      examples: [
        'posdata sales --from today --sort "date_order desc" --limit 10',
        'posdata sales --from yesterday --to yesterday --config-id 1 -o sales.csv',
        "posdata sales --checkpoint ~/.cache/sales.ckpt -o '/data/sales-{to}.csv'",
      ],
    },
    sync: {
      defaultFields: [
        'id',
        'name',
        'pos_reference',
        'date_order',
        'state',
        'amount_total',
        'amount_paid',
        'amount_tax',
        'amount_return',
        'config_id',
        'session_id',
        'user_id',
        'partner_id',
        'payment_ids',
        'company_id',
        'currency_id',
        // Where the modules are installed (a server without them has not these fields):
        // pos_hr's employee at the register, pos_restaurant's table, guests and tip (is_tipped
        // only repeats tip_amount > 0).
        'employee_id',
        'table_id',
        'customer_count',
        'tip_amount',
        // The invoice's own number (SYNC_DERIVED), where the order has one.
        'invoice',
        ...STAMPS,
      ],
    },
  },
  {
    name: 'lines',
    model: 'pos.order.line',
    list: {
      summary: 'Lines of one sales ticket (pos.order.line)',
      fixedDomain: () => [],
      defaultFields: LINE_FIELDS,
      filterFields: {},
      // Odoo 16-19 search a line through its ticket (a dotted path; 16's config_id is related,
      // searchable all the same): odoo-facts.md, domains.
      rangeFields: {
        config: 'order_id.config_id',
        session: 'order_id.session_id',
        time: 'order_id.date_order',
      },
      checkpoint: false,
      sumField: 'price_subtotal_incl',
      tableColumns: [
        'id',
        'order_id',
        'full_product_name',
        'qty',
        'price_subtotal_incl',
        'price_unit',
        'discount',
        'price_subtotal',
      ],
      path: '/api/v1/sales/{order_id}/lines',
      examples: [
        'posdata lines 4217',
        'posdata lines 4217 --format json | jq ".[].price_subtotal_incl"',
        'posdata lines --from yesterday --to yesterday -o lines.csv',
        'posdata lines --session-id 12 --format json',
      ],
    },
    sync: {
      noCompanyRule: true,
      // pos_loyalty's reward ("<programme> - <reward>") and card ("<programme>: <code>", masked),
      // where it is installed.
      defaultFields: [
        ...LINE_FIELDS,
        'refunded_orderline_id',
        'is_reward_line',
        'reward_id',
        'coupon_id',
        ...STAMPS,
      ],
    },
  },
  {
    name: 'refunds',
    model: 'pos.order',
    list: {
      summary: 'Refund orders, found by their link to the original order',
      // 19 has a stored is_refund; 16-18 only the stored link on the lines (odoo-facts §2.3).
      fixedDomain: (f) =>
        f.is_refund?.store ? [['is_refund', '=', true]] : [['lines.refunded_orderline_id', '!=', false]],
      defaultFields: [
        'id',
        'name',
        'date_order',
        'amount_total',
        'refunded_order_id',
        'config_id',
        'payment_ids',
      ],
      ...ordersByDate(),
      tableColumns: ['id', 'name', 'date_order', 'refunded_order_id', 'config_id', 'amount_total'],
      path: '/api/v1/refunds',
      examples: [
        'posdata refunds --from 7d',
        'posdata refunds --from 2026-11-01 --to 2026-11-30 -o refunds.csv',
      ],
    },
  },
  {
    name: 'cancellations',
    model: 'pos.order',
    list: {
      summary: 'Cancelled orders (state cancel)',
      fixedDomain: () => [['state', 'in', ['cancel']]],
      defaultFields: ['id', 'name', 'date_order', 'amount_total', 'state', 'config_id'],
      ...ordersByDate(),
      tableColumns: ['id', 'name', 'date_order', 'config_id', 'state', 'amount_total'],
      path: '/api/v1/cancellations',
      examples: [
        'posdata cancellations --from yesterday',
        'posdata cancellations --config-id 2 --format json',
      ],
    },
  },
  {
    name: 'closures',
    model: 'pos.session',
    list: {
      summary: 'Closed sessions (cash closures)',
      fixedDomain: () => [['state', '=', 'closed']],
      defaultFields: [
        'id',
        'name',
        'config_id',
        'start_at',
        'stop_at',
        'cash_register_balance_end_real',
        'total_payments_amount',
        'state',
      ],
      timeField: 'stop_at',
      filterFields: { config: 'config_id', time: 'stop_at' },
      checkpoint: true,
      // The money is what a closure is read for: at 80 columns the opening time gives way first.
      tableColumns: [
        'id',
        'name',
        'config_id',
        'stop_at',
        'cash_register_balance_end_real',
        'total_payments_amount',
        'start_at',
      ],
      path: '/api/v1/sessions/closures',
      examples: ['posdata closures --from 7d', 'posdata closures --sort "stop_at desc" --limit 20'],
    },
  },
  {
    name: 'payments',
    model: 'pos.payment',
    list: {
      summary: 'Payments (pos.payment) with their method names',
      fixedDomain: () => [],
      defaultFields: ['id', 'amount', 'payment_method_id', 'payment_date', 'pos_order_id', 'session_id'],
      timeField: 'payment_date',
      filterFields: { config: 'session_id.config_id', session: 'session_id', time: 'payment_date' },
      checkpoint: true,
      sumField: 'amount',
      tableColumns: ['id', 'payment_date', 'pos_order_id', 'payment_method_id', 'amount'],
      path: '/api/v1/payments',
      examples: ['posdata payments --from today', 'posdata payments --session-id 12 --format csv'],
    },
    sync: {
      defaultFields: [
        'id',
        'amount',
        'payment_method_id',
        'payment_date',
        'pos_order_id',
        'session_id',
        'is_change',
        // 18 and 19's pos_hr store the order's employee on its payments (16/17 do not: there
        // the payment's cashier is its order's, in sales).
        'employee_id',
        ...STAMPS,
      ],
    },
  },
  {
    name: 'products',
    model: 'product.template',
    list: {
      summary: 'The product catalog (product.template)',
      fixedDomain: () => [],
      defaultFields: ['id', 'name', 'list_price'],
      filterFields: {},
      checkpoint: false,
      tableColumns: ['id', 'name', 'list_price'],
      path: '/api/v1/products',
      examples: ['posdata products', 'posdata products --format csv -o catalog.csv'],
    },
    sync: {
      defaultFields: ['id', 'name', 'default_code', 'list_price', 'available_in_pos', 'active', ...STAMPS],
    },
  },
];

/** The list resources by name, in the order of the commands. */
export const RESOURCES = Object.fromEntries(
  CATALOG.filter((r) => r.list).map((r) => [r.name, { name: r.name, model: r.model, ...r.list }]),
) as Record<ResourceName, Resource>;

/** The tables of `posdata sync`, parents first. */
export const SYNC_RESOURCES: SyncResource[] = CATALOG.filter((r) => r.sync).map((r) => ({
  name: r.name as SyncName,
  model: r.model,
  ...(r.sync as SyncFacet),
}));

export const SYNC_NAMES = SYNC_RESOURCES.map((r) => r.name);

/**
 * What keeps a sync or tap read to the run's companies where Odoo does not (noCompanyRule):
 * nothing elsewhere, or where Odoo lists no companies.
 */
export function companyScope(r: SyncResource, companies: readonly number[] | undefined): Domain {
  return r.noCompanyRule && companies ? [['company_id', 'in', [...companies]]] : [];
}

export function isStored(fields: FieldMap, f: string): boolean {
  const def = fields[f];
  return def !== undefined && def.store !== false;
}

/** The default fields this server has and stores (syncFields: the derived columns among them). */
export function defaultSyncFields(r: SyncResource, fields: FieldMap): string[] {
  return r.defaultFields.filter((f) => f === 'id' || isStored(fields, f));
}

/**
 * Columns of a sync table that are no field of its model but read through one: sales'
 * `invoice`, the invoice's own number (account.move's name, INV/2026/00005), through
 * account_move, whose label in Odoo adds the order's name (`INV/2026/00005 (Shop/0008)` on 17).
 */
const SYNC_DERIVED: Partial<Record<SyncName, Record<string, { from: string; def: FieldDef }>>> = {
  sales: { invoice: { from: 'account_move', def: { type: 'char', string: 'Invoice', store: true } } },
};

/** The model's fields, with the resource's derived columns where the field they read is there. */
export function syncFields(r: SyncResource, fields: FieldMap): FieldMap {
  const derived = Object.entries(SYNC_DERIVED[r.name] ?? {}).filter(([, d]) => isStored(fields, d.from));
  return derived.length === 0
    ? fields
    : { ...fields, ...Object.fromEntries(derived.map(([name, d]) => [name, d.def])) };
}

/** The fields read from Odoo for these columns: a derived column's source in its place. */
export function syncFetch(r: SyncResource, columns: string[]): string[] {
  const derived = SYNC_DERIVED[r.name] ?? {};
  return [...new Set(columns.map((f) => derived[f]?.from ?? f))];
}

export const ORDER_STATES_HELP = ORDER_STATE_HELP;

/** Fields posdata computes itself where the server has no such field. */
export const VIRTUAL_FIELDS: Partial<
  Record<ResourceName, Record<string, { type: string; relation?: string }>>
> = {
  refunds: { refunded_order_id: { type: 'many2one', relation: 'pos.order' } },
  // An invoiced order's invoice number (account.move's own name, INV/2026/00005): Odoo's label
  // of account_move adds the order's name (`INV/2026/00005 (Shop/0008)` on 17). Asked with
  // --fields: the default columns stay as scripts read them (docs/exports.md).
  sales: { invoice: { type: 'char' } },
};
