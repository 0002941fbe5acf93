// The reports: the daily cash reconciliation, the books and the day's figures, with the
// reconcile, books and summary commands' own fetch, arithmetic and rows, as JSON.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readBooks } from '../books/books.js';
import { say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import { checkZone, zoneFor } from '../query/zone.js';
import { sessionsDomain } from '../reconcile/compute.js';
import { partRows, reconcileParts } from '../reconcile/parts.js';
import type { Row } from '../records/normalize.js';
import { JsonRenderer } from '../render/formats.js';
import { MemorySink } from '../sink/sink.js';
import { fetchSummary } from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';
import { fetchSplitSummary, splitRows } from '../summary/split.js';
import type { TokenCheck } from './auth.js';
import { companyClient } from './companies.js';
import { SECURITY_SCHEME } from './docs.js';
import { HttpProblem } from './problem.js';
import {
  BOOKS_QUERY,
  BOOKS_RESPONSES,
  RECONCILE_QUERY,
  RECONCILE_RESPONSES,
  SUMMARY_QUERY,
  SUMMARY_RESPONSES,
} from './schema.js';

/** GET /api/v1/reconcile, /api/v1/books and /api/v1/summary. */
export function reportRoutes(app: FastifyInstance, requireToken: TokenCheck): void {
  const route = reportRoute(app, requireToken);
  route('/api/v1/reconcile', RECONCILE_DOC, reconcileRows);
  route('/api/v1/books', BOOKS_DOC, booksRows);
  route('/api/v1/summary', SUMMARY_DOC, summaryOf);
}

/** What the OpenAPI page says of a report's path. */
interface ReportDoc {
  summary: string;
  description: string;
  querystring: unknown;
  response: unknown;
}

/** The session of a request that passed the token check. */
type Session = NonNullable<FastifyRequest['posdata']>;

/**
 * A report's route: its token check and OpenAPI entry, and its rows (`rowsOf` the request's
 * query, checked by the schema, and its session) sent as the command's --format json.
 */
function reportRoute(app: FastifyInstance, requireToken: TokenCheck) {
  return <Q>(path: string, doc: ReportDoc, rowsOf: (q: Q, session: Session) => Promise<Row[]>): void => {
    app.get(
      path,
      {
        onRequest: requireToken,
        schema: {
          tags: ['pos'],
          summary: doc.summary,
          description: doc.description,
          security: [{ [SECURITY_SCHEME]: [] }],
          querystring: doc.querystring,
          response: doc.response,
        },
      },
      async (req, reply) => {
        const session = req.posdata;
        if (!session) throw new HttpProblem(401, say`not logged in`);
        return sendJson(reply, await rowsOf(req.query as Q, session));
      },
    );
  };
}

const RECONCILE_DOC: ReportDoc = {
  summary: 'Cash reconciliation per closed session',
  description:
    'Expected against counted cash per closed session, with the totals by payment method. The same rows as `posdata reconcile --format json`.',
  querystring: RECONCILE_QUERY,
  response: RECONCILE_RESPONSES,
};

/** The daily cash reconciliation: the reconcile command's own fetch and arithmetic. */
async function reconcileRows(q: RangeQuery, session: Session): Promise<Row[]> {
  const domain = rangeOf(q, session.entry.tz);
  // Per company where the companies keep several currencies (no figure adds two).
  const parts = await reconcileParts(await companyClient(session.entry.client, q.company), domain);
  return partRows(parts, q.tz);
}

const BOOKS_DOC: ReportDoc = {
  summary: "Each closed session's journal entry beside its POS figures",
  description:
    'Per closed session, line by line, what the POS says beside what its journal entry says, and the difference. The same rows as `posdata books --format json`.',
  querystring: BOOKS_QUERY,
  response: BOOKS_RESPONSES,
};

/** The books: the books command's own reads and rows. */
async function booksRows(
  q: RangeQuery & { tolerance?: number; pos_only?: boolean },
  session: Session,
): Promise<Row[]> {
  const domain = rangeOf(q, session.entry.tz);
  const client = await companyClient(session.entry.client, q.company);
  const books = await readBooks(client, domain, {
    posOnly: q.pos_only === true,
    tz: q.tz,
    tolerance: q.tolerance ?? 0,
  });
  return books.rows.map((r) => ({ ...r }));
}

const SUMMARY_DOC: ReportDoc = {
  summary: "The day's figures (X and Z reports), computed by Odoo",
  description:
    'Orders, items, gross, discounts, refunds, net, tax, total and the payment methods per group of `by`, summed by Odoo (read_group). The same rows as `posdata summary --format json`.',
  querystring: SUMMARY_QUERY,
  response: SUMMARY_RESPONSES,
};

/** The summary's query string, as its schema checks it. */
interface SummaryQuery {
  date?: string;
  from?: string;
  to?: string;
  config_id?: number;
  session_id?: number;
  by?: string;
  top?: number;
  day_starts?: string;
  company?: string;
  tz?: string;
}

/** The day's figures: the summary command's own calls and rows. */
async function summaryOf(q: SummaryQuery, session: Session): Promise<Row[]> {
  if (q.tz !== undefined) checkZone(q.tz);
  const zone = zoneFor('range', q.tz, session.entry.tz);
  const client = await companyClient(session.entry.client, q.company);
  const params = {
    date: q.date,
    from: q.from,
    to: q.to,
    configId: q.config_id,
    sessionId: q.session_id,
    by: q.by,
    top: q.top,
    dayStarts: q.day_starts,
  };
  // As posdata summary: one summary per currency where the companies keep several, each
  // row led by its currency (by=company: company_id, company, currency).
  const split = await fetchSplitSummary(client, params, zone);
  return split ? splitRows(split).rows : summaryRows(await fetchSummary(client, params, zone));
}

/** The closed sessions' range of reconcile and books, as their query strings give it. */
interface RangeQuery {
  date?: string;
  from?: string;
  to?: string;
  config_id?: number;
  company?: string;
  tz?: string;
}

/** The sessions' domain: the business day in tz, else the Odoo user's zone. */
function rangeOf(q: RangeQuery, userTz: string | null | undefined): Domain {
  if (q.tz !== undefined) checkZone(q.tz);
  const zone = zoneFor('range', q.tz, userTz);
  return sessionsDomain({ date: q.date, from: q.from, to: q.to, configId: q.config_id }, zone);
}

/** Rows as the commands' --format json writes them, never cached. */
async function sendJson(reply: FastifyReply, rows: Row[]): Promise<FastifyReply> {
  const sink = new MemorySink();
  const renderer = new JsonRenderer(sink);
  await renderer.begin();
  await renderer.page(rows);
  await renderer.end();
  reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
  return reply.send(Buffer.from(sink.text()));
}
