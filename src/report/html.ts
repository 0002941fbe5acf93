// The report as one self-contained HTML page: the charts drawn as SVG while it is written
// (Apache ECharts' server-side rendering: no script, no request, in any browser), the
// figures in tables, and every figure once more in a JSON block (id="posdata-report") that a
// program can read back. Prints to A4: no chart or table row cut across two pages.
import { createRequire } from 'node:module';
import { DateTime } from '../query/luxon.js';
import { truncate } from '../render/visible.js';
import type { ChainReport, CurrencySection, Glance, ReportData, ServerReport } from './data.js';
import type { LossRow, Metric, OrderRef } from './loss-rows.js';

type ECharts = typeof import('echarts');

const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function money(v: number | null | undefined, digits: number): string {
  if (v === null || v === undefined) return '–';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
const pct = (v: number | null | undefined): string =>
  v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}\u00a0%`;

function chart(ec: ECharts, option: Record<string, unknown>, width = 720, height = 300): string {
  const c = ec.init(null, null, { renderer: 'svg', ssr: true, width, height });
  c.setOption({ animation: false, textStyle: { fontFamily: 'sans-serif' }, ...option });
  const svg = c.renderToSVGString();
  c.dispose();
  return svg;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function charts(ec: ECharts, s: CurrencySection): { id: string; title: string; svg: string }[] {
  const out: { id: string; title: string; svg: string }[] = [];
  const days = s.summary.day;
  out.push({
    id: 'sales-per-day',
    title: `Sales per day (${s.currency}, total)`,
    svg: chart(ec, {
      grid: { left: 70, right: 20, top: 20, bottom: 70 },
      xAxis: {
        type: 'category',
        data: days.map((r) => {
          const d = DateTime.fromISO(String(r.day));
          return d.isValid ? `${d.toFormat('ccc')} ${d.toFormat('dd')}` : String(r.day);
        }),
        axisLabel: { rotate: 60, fontSize: 10 },
      },
      yAxis: { type: 'value' },
      series: [{ type: 'bar', data: days.map((r) => r.total), itemStyle: { color: '#3b6ea5' } }],
    }),
  });
  const cells: [number, number, number][] = [];
  let most = 0;
  for (const r of s.summary.weekdayHour) {
    const w = WEEKDAYS.indexOf(String(r.weekday));
    const h = Number(r.hour);
    const v = Number(r.orders);
    if (w >= 0 && Number.isFinite(h)) cells.push([h, w, v]);
    most = Math.max(most, v);
  }
  out.push({
    id: 'hour-weekday',
    title: 'Orders by hour and weekday',
    svg: chart(ec, {
      grid: { left: 90, right: 20, top: 10, bottom: 70 },
      xAxis: {
        type: 'category',
        data: Array.from({ length: 24 }, (_, i) => String(i)),
        splitArea: { show: true },
      },
      yAxis: { type: 'category', data: WEEKDAYS, inverse: true, splitArea: { show: true } },
      visualMap: {
        min: 0,
        max: Math.max(1, most),
        orient: 'horizontal',
        left: 'center',
        bottom: 0,
        calculable: false,
        inRange: { color: ['#f3f6fa', '#3b6ea5'] },
      },
      series: [{ type: 'heatmap', data: cells }],
    }),
  });
  const pie = (id: string, title: string, data: { name: string; value: number }[]) =>
    out.push({
      id,
      title,
      svg: chart(
        ec,
        {
          series: [
            {
              type: 'pie',
              radius: ['35%', '65%'],
              data,
              label: { formatter: '{b}: {d} %' },
            },
          ],
        },
        720,
        280,
      ),
    });
  pie(
    'payment-methods',
    `Payment methods (${s.currency})`,
    s.summary.method.map((r) => ({ name: String(r.method), value: Number(r.total) })),
  );
  const bars = (id: string, title: string, rows: Record<string, unknown>[], key: string) => {
    const rs = [...rows].reverse();
    out.push({
      id,
      title,
      svg: chart(ec, {
        grid: { left: 200, right: 30, top: 10, bottom: 30 },
        xAxis: { type: 'value' },
        yAxis: { type: 'category', data: rs.map((r) => truncate(String(r[key]), 32)) },
        series: [{ type: 'bar', data: rs.map((r) => r.total), itemStyle: { color: '#5b8c5a' } }],
      }),
    });
  };
  bars('top-products', `Top products (${s.currency}, total)`, s.summary.product, 'product');
  bars('top-categories', `Top categories (${s.currency}, total)`, s.summary.category, 'category');
  pie(
    'registers',
    `Each register's share (${s.currency})`,
    s.summary.register.map((r) => ({ name: String(r.register), value: Number(r.total) })),
  );
  return out;
}

const GLANCE: [keyof Glance, string, boolean][] = [
  ['orders', 'Orders', false],
  ['items', 'Items', false],
  ['net', 'Net', true],
  ['tax', 'Tax', true],
  ['total', 'Total', true],
  ['average_ticket', 'Average ticket', true],
  ['discounts', 'Discounts', true],
  ['refund_count', 'Refunds (count)', false],
  ['refunds', 'Refunds', true],
];

function glance(s: CurrencySection): string {
  const cell = (v: number | null, m: boolean) => (m ? money(v, s.digits) : v === null ? '–' : String(v));
  const rows = GLANCE.map(([k, label, m]) => {
    const c = s.change[k];
    const ch = c === null || c === undefined ? '–' : `${c > 0 ? '+' : ''}${c.toFixed(1)} %`;
    return `<tr><th>${esc(label)}</th><td>${cell(s.glance[k], m)}</td><td>${cell(s.previous[k], m)}</td><td class="${c !== null && c !== undefined && c < 0 ? 'down' : 'up'}">${ch}</td></tr>`;
  });
  return `<table class="glance"><thead><tr><th></th><th>This period</th><th>Previous period</th><th>+/-</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * A time of Odoo's (UTC `YYYY-MM-DD HH:MM:SS`, as reconcile's rows and the orders carry it, or
 * ISO 8601) as a person reads it in the zone; what is not a time is shown as it came, escaped,
 * never as luxon's "Invalid DateTime".
 */
function localTime(t: unknown, zone: string): string {
  if (typeof t !== 'string' || t === '') return '';
  const d = /^\d{4}-\d{2}-\d{2} \d/.test(t)
    ? DateTime.fromSQL(t, { zone: 'UTC' })
    : DateTime.fromISO(t, { zone: 'UTC' });
  return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm') : esc(t);
}

const METRIC_LABEL: Record<Metric, string> = {
  refund_share: 'refunds',
  quick_share: 'quick refunds',
  cancelled_share: 'cancelled orders',
  discount_share: 'discounts',
  cash_short: 'cash short',
};

/**
 * The loss rows' table; with `tips` (a cashier's by id, where the shop takes tips) the second
 * table ends with each one's tips.
 */
function lossTable(
  rows: LossRow[],
  digits: number,
  zone: string,
  who: string,
  tips?: Map<number | null, number>,
): string {
  const mark = (r: LossRow, m: Metric, text: string) =>
    `<td class="${r.marks.includes(m) ? 'mark' : ''}" title="median of the others: ${r.median[m] ?? '–'}">${text}</td>`;
  // Fifteen columns are wider than A4: two tables of the same rows, what leaves as refunds and
  // cancellations, then what is given away and what is missing from the cash.
  const table = (heads: string[], cells: (r: LossRow) => string) => {
    const head = `<tr><th>${esc(who)}</th>${heads.map((h) => `<th>${h}</th>`).join('')}</tr>`;
    const body = rows
      .map(
        (r) =>
          `<tr class="${r.marks.length > 0 ? 'marked' : ''}" data-id="${r.id ?? ''}" data-marks="${r.marks.join(' ')}"><th>${esc(r.name || '(none)')}</th>${cells(r)}</tr>`,
      )
      .join('');
    return `<table class="loss"><thead>${head}</thead><tbody>${body}</tbody></table>`;
  };
  const returned = table(
    ['Orders', 'Sales', 'Refunds', 'Refunded', 'Share', 'Quick refunds', 'Share', 'Cancelled', 'Share'],
    (r) =>
      `<td>${r.orders}</td><td>${money(r.sales, digits)}</td><td>${r.refund_count}</td><td>${money(r.refunds, digits)}</td>${mark(r, 'refund_share', pct(r.refund_share))}<td>${r.quick_refunds}</td>${mark(r, 'quick_share', pct(r.quick_share))}<td>${r.cancelled}</td>${mark(r, 'cancelled_share', pct(r.cancelled_share))}`,
  );
  const given = table(
    [
      'Discounts',
      'Share',
      'Largest',
      'Closings',
      'Cash difference',
      'Short per closing',
      ...(tips ? ['Tips'] : []),
    ],
    (r) =>
      `<td>${money(r.discounts, digits)}</td>${mark(r, 'discount_share', pct(r.discount_share))}<td>${money(r.largest_discount, digits)}</td><td>${r.closings}</td><td>${money(r.cash_difference, digits)}</td>${mark(r, 'cash_short', money(r.cash_short, digits))}${tips ? `<td>${money(tips.get(r.id) ?? 0, digits)}</td>` : ''}`,
  );
  const behind = rows
    .filter((r) => r.marks.length > 0)
    .map((r) => {
      const parts = r.marks.map((m) => {
        const when = (t: string | null) => localTime(t, zone);
        // The detail: what a discount gave away, or the minutes from a sale to its refund.
        const orders = (list: OrderRef[], detail?: string, shown = (v: number) => money(v, digits)) =>
          `<table class="orders"><tr><th>Ticket</th><th>Time</th><th>Register</th><th>Amount</th>${detail ? `<th>${detail}</th>` : ''}</tr>${list
            .map(
              (o) =>
                `<tr><td>${esc(o.ticket)}</td><td>${when(o.time)}</td><td>${esc(o.register)}</td><td>${money(o.amount, digits)}</td>${detail ? `<td>${o.detail === undefined ? '–' : shown(o.detail)}</td>` : ''}</tr>`,
            )
            .join('')}</table>`;
        const title = `<h4>${esc(r.name)}: ${METRIC_LABEL[m]} (${m === 'cash_short' ? money(r.cash_short, digits) : pct(r[m])} against a median of ${m === 'cash_short' ? money(r.median[m], digits) : pct(r.median[m])} for the others)</h4>`;
        if (m === 'refund_share') return title + orders(r.behind.refunds);
        if (m === 'quick_share')
          return title + orders(r.behind.quick, 'Minutes after the sale', (v) => String(v));
        if (m === 'cancelled_share') return title + orders(r.behind.cancelled);
        if (m === 'discount_share') return title + orders(r.behind.discounts, 'Discount');
        return `${title}<table class="orders"><tr><th>Session</th><th>Closed</th><th>Register</th><th>Difference</th></tr>${r.behind.closings
          .map(
            (c) =>
              `<tr><td>${esc(c.session)}</td><td>${when(c.closed)}</td><td>${esc(c.register)}</td><td>${money(c.difference, digits)}</td></tr>`,
          )
          .join('')}</table>`;
      });
      return `<div class="behind" data-id="${r.id ?? ''}">${parts.join('')}</div>`;
    })
    .join('');
  return `${returned}${given}${behind}`;
}

/** Each cashier's tips (summary --by cashier's `tips`, by cashier_id), where the shop takes tips. */
function tipsOf(s: CurrencySection): Map<number | null, number> | undefined {
  if (!s.shop?.keys.includes('tips')) return undefined;
  return new Map(
    s.summary.cashier.map((r) => [
      typeof r.cashier_id === 'number' ? r.cashier_id : null,
      typeof r.tips === 'number' ? r.tips : 0,
    ]),
  );
}

function cashTable(s: CurrencySection, zone: string): string {
  const when = (t: unknown) => localTime(t, zone);
  const rows = s.reconcile
    .map(
      (r) =>
        `<tr><td>${esc(r.session)}</td><td>${esc(r.register)}</td><td>${when(r.closed)}</td><td>${money(r.expected_cash as number, s.digits)}</td><td>${money(r.counted_cash as number, s.digits)}</td><td class="${Math.abs(Number(r.difference)) >= 10 ** -s.digits ? 'mark' : ''}">${money(r.difference as number, s.digits)}</td></tr>`,
    )
    .join('');
  return `<table class="cash"><thead><tr><th>Session</th><th>Register</th><th>Closed</th><th>Expected</th><th>Counted</th><th>Difference</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const CSS = `
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: sans-serif; font-size: 10pt; color: #222; margin: 0 auto; max-width: 190mm; }
h1 { font-size: 18pt; margin: 0 0 2mm; } h2 { font-size: 13pt; margin: 8mm 0 2mm; border-bottom: 1px solid #ccc; }
h3 { font-size: 11pt; } h4 { font-size: 10pt; margin: 3mm 0 1mm; }
header p, footer p { margin: 0; color: #555; }
table { border-collapse: collapse; width: 100%; margin: 2mm 0; font-variant-numeric: tabular-nums; }
th, td { padding: 1mm 2mm; border-bottom: 1px solid #e4e4e4; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f3f6fa; }
tr { break-inside: avoid; page-break-inside: avoid; }
table.loss { font-size: 8pt; } table.loss th:first-child { overflow-wrap: anywhere; } table.orders { font-size: 8pt; width: auto; }
td.mark { background: #fde2e1; font-weight: bold; color: #a01010; }
td.down { color: #a01010; }
section.profile + section.profile { break-before: page; page-break-before: always; }
h2.profile { font-size: 15pt; border-bottom: 2px solid #3b6ea5; }
p.failed { color: #a01010; font-weight: bold; }
table.overview td { white-space: nowrap; } table.overview td.currency { text-align: left; white-space: normal; }
figure.chart { margin: 3mm 0; break-inside: avoid; page-break-inside: avoid; }
figure.chart svg { width: 100%; height: auto; display: block; }
figcaption { font-weight: bold; margin-bottom: 1mm; }
.behind { break-inside: avoid; page-break-inside: avoid; }
.note { color: #555; font-size: 9pt; }
footer { margin-top: 8mm; border-top: 1px solid #ccc; padding-top: 2mm; }
`;

/** A section's name: `shop-a · EUR (My Company, Shop FR)`, the profile only over several servers. */
function sectionName(s: CurrencySection, chain: boolean): string {
  const companies = s.companies.map((c) => c.name).join(', ');
  return `${chain && s.profile ? `${s.profile} · ` : ''}${s.currency}${companies ? ` (${companies})` : ''}`;
}

const slug = (v: string): string =>
  v
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Several sections: each one's figures in a row, never a total over two currencies or servers. */
function overview(sections: CurrencySection[], chain: boolean): string {
  const rows = sections.map((s) => {
    const c = s.change.total;
    const ch = c === null || c === undefined ? '–' : `${c > 0 ? '+' : ''}${c.toFixed(1)} %`;
    return `<tr data-profile="${esc(s.profile ?? '')}" data-currency="${esc(s.currency)}">${chain ? `<td>${esc(s.profile ?? '')}</td>` : ''}<td class="currency">${esc(s.currency)}</td><td class="currency">${esc(s.companies.map((x) => x.name).join(', '))}</td><td>${s.glance.orders}</td><td>${money(s.glance.net, s.digits)}</td><td>${money(s.glance.total, s.digits)}</td><td>${money(s.previous.total, s.digits)}</td><td class="${c !== null && c !== undefined && c < 0 ? 'down' : 'up'}">${ch}</td><td>${money(s.glance.average_ticket, s.digits)}</td><td>${money(s.glance.refunds, s.digits)}</td></tr>`;
  });
  return `<h2>At a glance, per ${chain ? 'server and ' : ''}currency</h2>
<p class="note">Each row in its own currency; no figure adds two currencies${chain ? ' or two servers' : ''}.</p>
<table class="overview"><thead><tr>${chain ? '<th>Profile</th>' : ''}<th>Currency</th><th>Companies</th><th>Orders</th><th>Net</th><th>Total</th><th>Previous total</th><th>+/-</th><th>Average ticket</th><th>Refunds</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A shop part's label: summary's column (shop.ts) as the owner reads it. */
function partLabel(key: string): string {
  if (key.startsWith('reward:')) return `Loyalty reward: ${truncate(key.slice('reward:'.length), 60)}`;
  const labels: Record<string, string> = {
    global_discounts: 'Global discounts (the Discount button)',
    gift_cards_redeemed: 'Gift cards redeemed',
    gift_cards_sold: 'Gift cards sold',
    tips: 'Tips',
  };
  return labels[key] ?? key;
}

/** What the shop rang up beside its products, this period's and the previous one's; nothing without any. */
function besideProducts(s: CurrencySection): string {
  const p = s.shop;
  if (!p) return '';
  const body = p.keys.map(
    (k) =>
      `<tr data-part="${esc(k)}"><th>${esc(partLabel(k))}</th><td>${money(p.period[k], s.digits)}</td><td>${money(p.previous[k], s.digits)}</td></tr>`,
  );
  return `<h3>Beside the products</h3><table class="glance shop"><thead><tr><th></th><th>This period</th><th>Previous period</th></tr></thead><tbody>${body.join('')}</tbody></table>
<p class="note">In Odoo's Sales Details, as in the gross and discounts above, each is a line of its own product: in gross at its amount (global discounts, rewards and gift cards redeemed taken off), none in discounts, where posdata summary counts those three; tips (owed to the staff) and gift cards sold (owed back in goods: a liability) are not the shop's revenue.</p>`;
}

/** A restaurant's guests (orders at a table): this period's and the previous one's. */
function guests(s: CurrencySection): string {
  const g = s.guests;
  if (!g) return '';
  const rows: [string, (x: NonNullable<CurrencySection['guests']>['period']) => string][] = [
    ['Orders at a table', (x) => String(x.orders)],
    ['Guests', (x) => String(x.guests)],
    ['Sales at tables', (x) => money(x.sales, s.digits)],
    ['Sales per guest', (x) => money(x.per_guest, s.digits)],
  ];
  const body = rows.map(
    ([label, f]) => `<tr><th>${esc(label)}</th><td>${f(g.period)}</td><td>${f(g.previous)}</td></tr>`,
  );
  return `<h3>Guests</h3><table class="glance guests"><thead><tr><th></th><th>This period</th><th>Previous period</th></tr></thead><tbody>${body.join('')}</tbody></table>
<p class="note">Guests are the orders' guest counts (pos_restaurant) of the sales rung up at a table; refunds are left out.</p>`;
}

function section(ec: ECharts, s: CurrencySection, zone: string, idPrefix: string, chain: boolean): string {
  const figs = charts(ec, s)
    .map(
      (c) =>
        `<figure class="chart" id="${idPrefix}${c.id}" data-chart="${c.id}"><figcaption>${esc(c.title)}</figcaption>${c.svg}</figure>`,
    )
    .join('');
  return `<section class="currency" data-profile="${esc(s.profile ?? '')}" data-currency="${esc(s.currency)}" data-companies="${esc(s.companies.map((c) => c.id).join(' '))}">
<h2>${esc(sectionName(s, chain))}: ${esc(s.registers.map((r) => r.name).join(', '))}</h2>
<h3>The period at a glance</h3>${glance(s)}${besideProducts(s)}${guests(s)}
<h3>Charts</h3>${figs}
<h2>Where the money leaks${chain || idPrefix ? ` (${esc(sectionName(s, chain))})` : ''}</h2>
<p class="note">Each figure is set against the median of the others; a marked one is more than twice that median (and ${(0.05 * 100).toFixed(0)} points, or ${money(1, s.digits)} ${esc(s.currency)} short per closing, above it), with the orders behind it listed below. Shares are judged only for ${s.loss.minOrders} orders or more. Quick refunds: refunded within ${s.loss.quickMinutes} minutes of the sale. A cashier is the order's ${s.loss.cashierField === 'employee_id' ? 'employee (pos_hr)' : 'Odoo user'}.</p>
<h3>Per cashier</h3>${lossTable(s.loss.cashiers, s.digits, zone, 'Cashier', tipsOf(s))}
<h3>Per register</h3>${lossTable(s.loss.registers, s.digits, zone, 'Register')}
<p class="note">What Odoo does not store: ${s.loss.unknown.map(esc).join(' ')}</p>
<h2>Cash closings${chain || idPrefix ? ` (${esc(sectionName(s, chain))})` : ''}</h2>${cashTable(s, zone)}${booksPart(s, chain || idPrefix !== '' ? ` (${esc(sectionName(s, chain))})` : '')}
</section>`;
}

/** The books, only where a closing's journal entry differs from what the POS took (posdata books). */
function booksPart(s: CurrencySection, named: string): string {
  if (!s.books || s.books.length === 0) return '';
  const n = new Set(s.books.map((r) => r.session_id)).size;
  const amount = (v: number | null) => (v === null ? '' : money(v, s.digits));
  const rows = s.books
    .map(
      (r) =>
        `<tr><td>${esc(r.session)}</td><td>${esc(r.entry ?? '')}</td><td>${esc(r.entry_state ?? '')}</td><td>${esc(r.line)}</td><td>${amount(r.pos)}</td><td>${amount(r.books)}</td><td class="mark">${amount(r.difference)}</td><td>${esc(r.note ?? '')}</td></tr>`,
    )
    .join('');
  return `
<h2 class="books">Books${named}</h2>
<p class="note">The journal entries of ${n} closing${n === 1 ? '' : 's'} do not say what the POS took: the lines that differ (books − POS), as posdata books gives them.</p>
<table class="books"><thead><tr><th>Session</th><th>Entry</th><th>State</th><th>Line</th><th>POS</th><th>Books</th><th>Difference</th><th>Note</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** What the header says of one server: where, as whom, which companies, the zone. */
function serverLine(v: ServerReport, chain: boolean): string {
  // A date stays a date; an instant (the previous period of --from/--to) is said in the zone.
  const local = (t: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(t)
      ? t
      : DateTime.fromISO(t).setZone(v.server.zone).toFormat('yyyy-MM-dd HH:mm ZZZZ');
  const companies = v.companies.map((c) => `${c.id} ${c.name} (${c.currency})`).join(', ');
  const currencies = [...new Set(v.companies.map((c) => c.currency))].join(', ');
  return `<p${chain ? ` data-profile="${esc(v.profile ?? '')}"` : ''}>${chain ? `<b>${esc(v.profile ?? '')}</b>: read` : 'Read'} from ${esc(v.server.url)}, database ${esc(v.server.database)} (Odoo ${esc(v.server.version)}), as ${esc(v.server.user)}; companies: ${esc(companies || 'as Odoo gives them to this user')}${currencies ? `; currencies: ${esc(currencies)}` : ''}. Days cut in ${esc(v.server.zone)}; previous period ${esc(local(v.previous.from))} to ${esc(local(v.previous.to))}${chain ? `; ${v.requests} requests` : ''}.</p>`;
}

/** The report of one server (`ReportData`) or of several (`ChainReport`), as one HTML page. */
export async function renderHtml(d: ReportData | ChainReport, version: string): Promise<string> {
  // Its names come cut from where the figures are gathered (names.ts).
  // ECharts' one-file build (its package's `require` entry): the same library as its ES modules,
  // which Node would resolve and link file by file (hundreds of them: ~2 s of a report's start,
  // ~0.7 s this way; bench/notes.md).
  const ec = createRequire(import.meta.url)('echarts') as ECharts;
  const chain = 'servers' in d;
  const servers: ServerReport[] = chain ? d.servers : [d];
  const failed = chain ? d.failed : [];
  const zoneOf = new Map(servers.map((v) => [v.profile, v.server.zone]));
  const firstZone = servers[0]?.server.zone ?? 'UTC';
  const local = (iso: string) => DateTime.fromISO(iso).setZone(firstZone).toFormat('yyyy-MM-dd HH:mm ZZZZ');
  const many = d.currencies.length > 1;
  const sections = d.currencies.map((s) =>
    section(
      ec,
      s,
      zoneOf.get(s.profile) ?? firstZone,
      many ? `${slug([chain ? (s.profile ?? '') : '', s.currency].join(' '))}-` : '',
      chain,
    ),
  );
  // Over several servers: one part per profile, its currencies inside, each from a new page.
  const body = chain
    ? servers
        .map((v) => {
          const own = d.currencies.flatMap((s, i) => (s.profile === v.profile ? [sections[i]] : []));
          return `<section class="profile" data-profile="${esc(v.profile ?? '')}">
<h2 class="profile">${esc(v.profile ?? '')}: ${esc(v.server.url)}, ${esc(v.server.database)}</h2>
${own.join('\n')}
</section>`;
        })
        .join('\n')
    : sections.join('\n');
  const json = JSON.stringify(d).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>posdata report ${esc(d.period.from)} to ${esc(d.period.to)}</title>
<style>${CSS}</style></head>
<body>
<header><h1>Point of sale: ${esc(d.period.from)} to ${esc(d.period.to)}</h1>
${servers.map((v) => serverLine(v, chain)).join('\n')}
${failed.length > 0 ? `<p class="failed">Not read: ${esc(failed.join(', '))} (why is on standard error); nothing of ${failed.length === 1 ? 'it' : 'theirs'} is in this report.</p>` : ''}
<p>Written ${esc(local(d.generated))} in ${d.requests} requests${chain ? ` to ${servers.length} servers` : ''}.</p></header>
${many ? overview(d.currencies, chain) : ''}
${body}
<footer><p>posdata ${esc(version)}</p></footer>
<script type="application/json" id="posdata-report">${json}</script>
</body></html>
`;
}
