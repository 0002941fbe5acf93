// The data paths, one per list resource of the catalog: the list commands' query, pages and
// JSON renderer, streamed, so GET /api/v1/sales?… answers exactly what
// `posdata sales … --format json` prints.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RESOURCES, type Resource } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { NotFoundError, UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import type { QueryFlags } from '../query/build.js';
import { commaList, parseDomain } from '../query/domain.js';
import { checkZone, zoneFor } from '../query/zone.js';
import { inCompanyCurrency, type Prepared, prepare, streamRows } from '../read/stream.js';
import { JsonRenderer } from '../render/formats.js';
import { MemorySink } from '../sink/sink.js';
import type { TokenCheck } from './auth.js';
import { companyClient } from './companies.js';
import { SECURITY_SCHEME } from './docs.js';
import { HttpProblem } from './problem.js';
import { listResponses, querySchema, resourceNames } from './schema.js';

interface ListQuery {
  config_id?: number;
  session_id?: number;
  state?: string;
  from?: string;
  to?: string;
  tz?: string;
  fields?: string;
  limit?: number;
  offset?: number;
  order?: string;
  domain?: string;
  with_payments?: boolean;
  company?: string;
}

/** The json format's bytes, one chunk per page: the commands' JsonRenderer, writing to memory. */
async function* jsonChunks(
  client: OdooClient,
  prepared: Prepared,
  opts: { pageSize: number; tz?: string; offset?: number },
): AsyncGenerator<string> {
  const sink = new MemorySink();
  const renderer = new JsonRenderer(sink);
  await renderer.begin();
  for await (const { rows } of streamRows(client, prepared, opts)) {
    await renderer.page(rows);
    if (sink.chunks.length > 0) yield sink.chunks.splice(0).join('');
  }
  await renderer.end();
  yield sink.chunks.splice(0).join('');
}

/** GET a path per resource (lines: /api/v1/sales/{order_id}/lines), `pageSize` records a request. */
export function dataRoutes(app: FastifyInstance, requireToken: TokenCheck, pageSize: number): void {
  const answer = async (
    req: FastifyRequest,
    reply: FastifyReply,
    resource: Resource,
    orderId?: number,
  ): Promise<FastifyReply> => {
    const session = req.posdata;
    if (!session) throw new HttpProblem(401, say`not logged in`);
    const q = req.query as ListQuery;
    const client = await companyClient(session.entry.client, q.company);
    if (q.tz !== undefined) checkZone(q.tz);
    const flags: QueryFlags = {
      configId: q.config_id,
      sessionId: q.session_id,
      state: q.state !== undefined ? commaList(q.state) : undefined,
      from: q.from,
      to: q.to,
      tz: zoneFor('range', q.tz, session.entry.tz),
      fields: q.fields !== undefined ? commaList(q.fields) : undefined,
      limit: q.limit,
      sort: q.order,
      domain: q.domain !== undefined ? parseDomain(q.domain) : undefined,
    };
    if (flags.fields?.length === 0) throw new UsageError(say`fields is empty`, say`name at least one field`);
    if (flags.state?.length === 0) throw new UsageError(say`state is empty`, say`name at least one state`);
    const fixed: Domain = orderId !== undefined ? [['order_id', '=', orderId]] : [];
    // Money at the decimals of the company's currency, as the command shows it (read once per login).
    const prepared = await inCompanyCurrency(
      client,
      await prepare(client, resource, flags, { fixed, withPayments: q.with_payments }),
    );
    if (orderId !== undefined) {
      const found = await client.read('pos.order', [orderId], ['name']);
      if (found.length === 0)
        throw new NotFoundError(
          say`sales ticket ${orderId} does not exist`,
          say`list ticket ids with GET /api/v1/sales`,
        );
    }
    const chunks = jsonChunks(client, prepared, { pageSize, tz: q.tz, offset: q.offset });
    // The first page is read before the status line goes out, so a refusal (rights,
    // unknown field, Odoo down) is still a problem document with its own status. Later
    // failures can only cut the stream short: the client then sees an unfinished array.
    const first = await chunks.next();
    async function* body(): AsyncGenerator<string> {
      if (!first.done) yield first.value;
      yield* chunks;
    }
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
    return reply.send(Readable.from(body(), { objectMode: false }));
  };

  for (const name of resourceNames()) {
    const r = RESOURCES[name];
    const schema = {
      tags: ['pos'],
      summary: r.summary,
      description: `${r.summary}: \`${r.model}\`. The same records as \`posdata ${name}${name === 'lines' ? ' ORDER_ID' : ''} --format json\`.`,
      security: [{ [SECURITY_SCHEME]: [] }],
      querystring: querySchema(r),
      response: listResponses(r),
    };
    if (name === 'lines') {
      app.get(
        '/api/v1/sales/:order_id/lines',
        {
          onRequest: requireToken,
          schema: {
            ...schema,
            params: {
              type: 'object',
              properties: {
                order_id: {
                  type: 'integer',
                  minimum: 1,
                  maximum: 2147483647,
                  description: 'the sales ticket id',
                },
              },
              required: ['order_id'],
            },
          },
        },
        (req, reply) => answer(req, reply, r, (req.params as { order_id: number }).order_id),
      );
    } else {
      app.get(r.path, { onRequest: requireToken, schema }, (req, reply) => answer(req, reply, r));
    }
  }
}
