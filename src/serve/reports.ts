// The reports: the daily cash reconciliation and the day's figures, with the reconcile and
// summary commands' own fetch, arithmetic and rows, as JSON.
import type { FastifyInstance } from 'fastify';
import { say } from '../core/redact.js';
import { checkZone, zoneFor } from '../query/zone.js';
import { sessionsDomain } from '../reconcile/compute.js';
import { partRows, reconcileParts } from '../reconcile/parts.js';
import { JsonRenderer } from '../render/formats.js';
import { MemorySink } from '../sink/sink.js';
import { fetchSummary } from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';
import { fetchSplitSummary, splitRows } from '../summary/split.js';
import type { TokenCheck } from './auth.js';
import { companyClient } from './companies.js';
import { SECURITY_SCHEME } from './docs.js';
import { HttpProblem } from './problem.js';
import { RECONCILE_QUERY, RECONCILE_RESPONSES, SUMMARY_QUERY, SUMMARY_RESPONSES } from './schema.js';

/** GET /api/v1/reconcile and /api/v1/summary. */
export function reportRoutes(app: FastifyInstance, requireToken: TokenCheck): void {
  // The daily cash reconciliation: the reconcile command's own fetch and arithmetic.
  app.get(
    '/api/v1/reconcile',
    {
      onRequest: requireToken,
      schema: {
        tags: ['pos'],
        summary: 'Cash reconciliation per closed session',
        description:
          'Expected against counted cash per closed session, with the totals by payment method. The same rows as `posdata reconcile --format json`.',
        security: [{ [SECURITY_SCHEME]: [] }],
        querystring: RECONCILE_QUERY,
        response: RECONCILE_RESPONSES,
      },
    },
    async (req, reply) => {
      const session = req.posdata;
      if (!session) throw new HttpProblem(401, say`not logged in`);
      const q = req.query as {
        date?: string;
        from?: string;
        to?: string;
        config_id?: number;
        company?: string;
        tz?: string;
      };
      if (q.tz !== undefined) checkZone(q.tz);
      const zone = zoneFor('range', q.tz, session.entry.tz);
      const domain = sessionsDomain({ date: q.date, from: q.from, to: q.to, configId: q.config_id }, zone);
      // Per company where the companies keep several currencies (no figure adds two).
      const parts = await reconcileParts(await companyClient(session.entry.client, q.company), domain);
      const sink = new MemorySink();
      const renderer = new JsonRenderer(sink);
      await renderer.begin();
      await renderer.page(partRows(parts, q.tz));
      await renderer.end();
      reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
      return reply.send(Buffer.from(sink.text()));
    },
  );

  // The day's figures: the summary command's own calls and rows.
  app.get(
    '/api/v1/summary',
    {
      onRequest: requireToken,
      schema: {
        tags: ['pos'],
        summary: "The day's figures (X and Z reports), computed by Odoo",
        description:
          'Orders, items, gross, discounts, refunds, net, tax, total and the payment methods per group of `by`, summed by Odoo (read_group). The same rows as `posdata summary --format json`.',
        security: [{ [SECURITY_SCHEME]: [] }],
        querystring: SUMMARY_QUERY,
        response: SUMMARY_RESPONSES,
      },
    },
    async (req, reply) => {
      const session = req.posdata;
      if (!session) throw new HttpProblem(401, say`not logged in`);
      const q = req.query as {
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
      };
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
      const rows = split ? splitRows(split).rows : summaryRows(await fetchSummary(client, params, zone));
      const sink = new MemorySink();
      const renderer = new JsonRenderer(sink);
      await renderer.begin();
      await renderer.page(rows);
      await renderer.end();
      reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
      return reply.send(Buffer.from(sink.text()));
    },
  );
}
