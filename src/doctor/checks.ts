// `posdata doctor`: read-only checks of posdata against the logged-in server, each one line
// with ok / differs / cannot (and why). Every check reuses the code the commands run (the
// catalog's resources and the read layer's paging for the counts, the summary's
// --check-odoo comparison, reconcile's computation), so what holds here holds for them.
// No terminal knowledge here: the command prints the lines.
import { RESOURCES, type Resource, type ResourceName, SYNC_RESOURCES } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { AuthError, ConnectionError, InterruptedError, PosdataError, ServerError } from '../core/errors.js';
import { joinSaid, own, type Said, say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import { majorVersion } from '../core/types.js';
import { rangeDomain } from '../query/time.js';
import { moneyDigits } from '../read/currency.js';
import { prepare, streamRows } from '../read/stream.js';
import { fetchReconciliation, reconcile, sessionsDomain } from '../reconcile/compute.js';
import { DEFAULT_MONEY_DIGITS, fixedDecimals, roundAt } from '../records/normalize.js';
import { checkOdoo } from '../summary/check.js';
import { fetchSummary } from '../summary/query.js';

export type Status = 'ok' | 'differs' | 'cannot';

export interface Check {
  /** What was checked: `protocol`, `access`, `clock`, `count sales`, `summary`, `reconcile`, `speed`. */
  check: string;
  status: Status;
  /** What was found, or why it could not be checked: Odoo's values in holes. */
  detail: Said;
  /** The figures compared, where there are figures (json). */
  figures?: Record<string, number | string | null>;
  /** The error that kept the check from being made, where it is not a documented limit (exit code). */
  failed?: PosdataError;
}

export interface DoctorParams {
  /** The business day of the summary, reconcile and the counts (YYYY-MM-DD, yesterday, …). */
  date: string;
  /** The business day's zone. */
  zone: string;
  /** Records per page, as the exports read them. */
  pageSize: number;
  /** The protocol the session speaks. */
  protocol: string;
}

/** The versions posdata knows the answers of (the sandbox's, and real servers' recordings). */
const KNOWN_MAJORS = [16, 17, 18, 19];

/** Beyond this the server's clock and ours differ (seconds). */
export const CLOCK_TOLERANCE = 60;

/**
 * What each use of posdata reads. A POS user may not read account.payment, which Odoo's
 * Sales Details reads for sessions (with --session-id, or a register's sessions wholly
 * inside the range).
 */
const USES: { use: string; models: string[] }[] = [
  { use: 'configs', models: ['pos.config'] },
  { use: 'sales', models: ['pos.order'] },
  { use: 'lines', models: ['pos.order.line'] },
  { use: 'refunds', models: ['pos.order'] },
  { use: 'cancellations', models: ['pos.order'] },
  { use: 'closures', models: ['pos.session'] },
  { use: 'payments', models: ['pos.payment', 'pos.payment.method'] },
  { use: 'products', models: ['product.template'] },
  { use: 'reconcile', models: ['pos.session', 'pos.payment', 'pos.config', 'pos.payment.method'] },
  { use: 'summary', models: ['pos.order', 'pos.config', 'pos.session'] },
  { use: 'summary --by method', models: ['pos.payment'] },
  {
    use: 'summary --by product/category/tax',
    models: ['pos.order.line', 'product.product', 'report.pos.order'],
  },
  { use: 'summary --check-odoo', models: ['pos.order'] },
  {
    use: 'summary --check-odoo with --session-id or --config-id (Odoo reads account.payment for the sessions)',
    models: ['account.payment'],
  },
  { use: 'sync', models: SYNC_RESOURCES.map((r) => r.model) },
];

export interface Access {
  /** Uses whose models this user may all read. */
  works: string[];
  /** Models Odoo refuses this user, with why and the uses they take away. */
  refused: { model: string; why: string; uses: string[] }[];
}

/** Which models this user may read: Odoo's own refusal (AccessError) on a count of nothing. */
export async function readableModels(client: OdooClient): Promise<Access> {
  const models = [...new Set(USES.flatMap((u) => u.models))];
  const why = new Map<string, string>();
  await Promise.all(
    models.map(async (model) => {
      try {
        await client.searchCount(model, [['id', '=', 0]]);
      } catch (err) {
        if (!refusal(err)) throw err;
        why.set(model, err.odooName.replace(/^odoo\.exceptions\./, ''));
      }
    }),
  );
  return {
    works: USES.filter((u) => u.models.every((m) => !why.has(m))).map((u) => u.use),
    refused: models
      .filter((m) => why.has(m))
      .map((model) => ({
        model,
        why: why.get(model) as string,
        uses: USES.filter((u) => u.models.includes(model)).map((u) => u.use),
      })),
  };
}

/** An error that ends the whole run (the usual exit codes), not one check. */
function fatal(err: unknown): boolean {
  return (
    err instanceof AuthError ||
    err instanceof ConnectionError ||
    err instanceof InterruptedError ||
    !(err instanceof PosdataError)
  );
}

/** Odoo refused the user (access rights or a record rule), or does not have the model. */
function refusal(err: unknown): err is ServerError {
  return (
    err instanceof ServerError && /AccessError|doesn't exist|does not exist/i.test(`${err.odooName} ${err}`)
  );
}

/** A check whose failure (other than one that ends the run) is its line: cannot, and why. */
async function guarded(check: string, fn: () => Promise<Check>): Promise<Check> {
  try {
    return await fn();
  } catch (err) {
    if (fatal(err)) throw err;
    const e = err as PosdataError;
    // Odoo refusing this user is what the access line foretold: a limit, not a failure.
    if (refusal(err)) return { check, status: 'cannot', detail: say`${oneLine(String(e.said))}` };
    return { check, status: 'cannot', detail: say`${oneLine(e.line())}`, failed: e };
  }
}

/** Every check in order, each as soon as it is done. */
export async function* runChecks(client: OdooClient, p: DoctorParams): AsyncGenerator<Check> {
  const access = await readableModels(client);
  yield await guarded('protocol', () => protocolCheck(client, p));
  yield* accessChecks(access);
  yield clockCheck(client);
  for (const name of Object.keys(RESOURCES) as ResourceName[])
    yield await guarded(`count ${name}`, () => countCheck(client, RESOURCES[name], p));
  yield await guarded('summary', () => summaryCheck(client, p));
  yield await guarded('reconcile', () => reconcileCheck(client, p));
  yield await guarded('speed', () => speedCheck(client, p));
}

async function protocolCheck(client: OdooClient, p: DoctorParams): Promise<Check> {
  const v = await client.version();
  const major = majorVersion(v);
  const figures = { protocol: p.protocol, server_version: v.server_version };
  const wire = p.protocol === 'json2' ? 'JSON-2' : 'JSON-RPC';
  if (!KNOWN_MAJORS.includes(major))
    return {
      check: 'protocol',
      status: 'cannot',
      detail: say`${own(wire)}, Odoo ${v.server_version}: posdata knows how Odoo 16 to 19 answer, not this version`,
      figures,
    };
  return { check: 'protocol', status: 'ok', detail: say`${own(wire)}, Odoo ${v.server_version}`, figures };
}

/** One line of what works for this user, then one per model Odoo refuses it, with what that takes away. */
function accessChecks(a: Access): Check[] {
  const first: Check =
    a.works.length > 0
      ? {
          check: 'access',
          status: 'ok',
          detail: say`${own(a.refused.length === 0 ? 'every command works for this user' : 'works for this user')}: ${own(a.works.join(', '))}`,
        }
      : {
          check: 'access',
          status: 'cannot',
          detail: say`this user may read none of the models posdata reads`,
        };
  return [
    first,
    ...a.refused.map(
      (r): Check => ({
        check: `access ${r.model}`,
        status: 'cannot',
        detail: say`Odoo refuses this user (${own(r.why)}), so these do not work: ${own(r.uses.join('; '))}`,
      }),
    ),
  ];
}

function clockCheck(client: OdooClient): Check {
  const there = client.transport.serverDate;
  const here = Date.now();
  if (there === undefined)
    return { check: 'clock', status: 'cannot', detail: say`the server's replies carry no Date header` };
  // The Date header has whole seconds: the server's clock is in [there, there + 1 s).
  const ahead = Math.round((there + 500 - here) / 1000);
  const figures = { server_ahead_seconds: ahead };
  const said =
    ahead === 0
      ? say`the server's clock and ours agree to the second`
      : say`the server's clock is ${own(String(Math.abs(ahead)))} s ${own(ahead > 0 ? 'ahead of' : 'behind')} ours`;
  if (Math.abs(ahead) <= CLOCK_TOLERANCE) return { check: 'clock', status: 'ok', detail: said, figures };
  return {
    check: 'clock',
    status: 'differs',
    detail: say`${said}: --from 2h, today and yesterday are read by this machine's clock, Odoo's dates by its own; set the clocks right (NTP)`,
    figures,
  };
}

/** The day's leaves on a resource's time field, or on its order's date (lines); none for the rest. */
function dayDomain(resource: Resource, p: DoctorParams): { domain: Domain; what: string } {
  if (resource.timeField)
    return { domain: rangeDomain(resource.timeField, p.date, p.date, p.zone), what: `of ${p.date}` };
  if (resource.name === 'lines')
    return {
      domain: rangeDomain('order_id.date_order', p.date, p.date, p.zone),
      what: `of the orders of ${p.date}`,
    };
  return { domain: [], what: 'in all' };
}

/**
 * posdata's own count of a resource, read as its export reads it (the catalog's query and
 * fixed filter, ids paged by key), against Odoo's search_count of the same domain.
 */
async function countCheck(client: OdooClient, resource: Resource, p: DoctorParams): Promise<Check> {
  const check = `count ${resource.name}`;
  const day = dayDomain(resource, p);
  const prepared = await prepare(client, resource, { tz: p.zone }, { fixed: day.domain });
  const { domain, order } = prepared.query;
  let ours = 0;
  for await (const page of client.pages({
    model: resource.model,
    domain,
    fields: ['id'],
    order,
    pageSize: p.pageSize,
    countedByCaller: true,
  }))
    ours += page.length;
  const odoo = await client.searchCount(resource.model, domain);
  const figures = { posdata: ours, odoo };
  if (ours === odoo)
    return { check, status: 'ok', detail: say`${ours} ${own(day.what)}, as Odoo's search_count`, figures };
  return {
    check,
    status: 'differs',
    detail: say`posdata reads ${ours} ${own(day.what)}, Odoo's search_count says ${odoo}`,
    figures,
  };
}

/** The day's summary against Odoo's Sales Details (summary --check-odoo). */
async function summaryCheck(client: OdooClient, p: DoctorParams): Promise<Check> {
  const params = { date: p.date, by: 'register' };
  const r = await fetchSummary(client, params, p.zone);
  const c = await checkOdoo(client, r, params);
  const detail = joinSaid(c.lines, '; ');
  const figures = { compared: c.compared, differ: c.differ };
  if (c.differ > 0) return { check: 'summary', status: 'differs', detail, figures };
  if (c.compared === 0) return { check: 'summary', status: 'cannot', detail, figures };
  return { check: 'summary', status: 'ok', detail: say`${own(p.date)}: ${detail}`, figures };
}

/** reconcile's difference of each session closed that day against Odoo's cash_register_difference. */
async function reconcileCheck(client: OdooClient, p: DoctorParams): Promise<Check> {
  const { inputs, sessionFields } = await fetchReconciliation(
    client,
    sessionsDomain({ date: p.date }, p.zone),
    { pageSize: p.pageSize },
  );
  // As posdata reconcile computes it: at the decimals of the company's currency.
  const digits = inputs.sessions.length > 0 ? await moneyDigits(client) : DEFAULT_MONEY_DIGITS;
  const rec = reconcile(inputs, digits);
  if (rec.sessions.length === 0)
    return {
      check: 'reconcile',
      status: 'cannot',
      detail: say`no session was closed on ${own(p.date)}: nothing to compare (--date a day with a closing)`,
    };
  if (!('cash_register_difference' in sessionFields))
    return { check: 'reconcile', status: 'cannot', detail: say`this Odoo has no cash_register_difference` };
  const odoo = new Map(
    (
      await client.read(
        'pos.session',
        rec.sessions.map((s) => s.sessionId),
        ['cash_register_difference'],
      )
    ).map((s) => [s.id, typeof s.cash_register_difference === 'number' ? s.cash_register_difference : 0]),
  );
  const differing = rec.sessions.filter((s) => s.difference !== roundAt(odoo.get(s.sessionId) ?? 0, digits));
  const n = rec.sessions.length;
  const figures = { sessions: n, differ: differing.length };
  if (differing.length === 0)
    return {
      check: 'reconcile',
      status: 'ok',
      detail: say`${own(p.date)}: the difference of ${own(String(n))} closed session${own(n === 1 ? '' : 's')} is Odoo's cash_register_difference ${own(digits === 2 ? 'to the cent' : `at ${digits} decimals`)}`,
      figures,
    };
  const lines = differing.map(
    (s) =>
      say`${s.session}: Odoo ${fixedDecimals(odoo.get(s.sessionId) ?? 0, digits)}, posdata ${fixedDecimals(s.difference, digits)}`,
  );
  return {
    check: 'reconcile',
    status: 'differs',
    detail: say`${own(String(differing.length))} of ${own(String(n))} sessions differ from Odoo's cash_register_difference: ${joinSaid(lines, '; ')}`,
    figures,
  };
}

/** How long the first page of sales takes, read and normalised as `posdata sales` does. */
async function speedCheck(client: OdooClient, p: DoctorParams): Promise<Check> {
  const prepared = await prepare(client, RESOURCES.sales, { tz: p.zone });
  const started = performance.now();
  let n = 0;
  for await (const page of streamRows(client, prepared, { pageSize: p.pageSize })) {
    n = page.rows.length;
    break;
  }
  const ms = Math.round(performance.now() - started);
  const figures = { records: n, page_size: p.pageSize, ms };
  if (n === 0)
    return { check: 'speed', status: 'cannot', detail: say`this user sees no sales to time`, figures };
  const perSecond = Math.round((n / Math.max(ms, 1)) * 1000);
  return {
    check: 'speed',
    status: 'ok',
    detail: say`a page of ${own(String(n))} sales took ${own(String(ms))} ms (about ${own(String(perSecond))} records a second)`,
    figures,
  };
}

function oneLine(s: string): string {
  const l = s.replace(/\s+/g, ' ').trim();
  return l.length > 160 ? `${l.slice(0, 157)}…` : l;
}
