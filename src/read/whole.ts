// One search_read of every record a domain matches, whole behind a server that caps search_read
// (a proxy or a module answering at most N records whatever is asked): a figure made of such a
// read would otherwise be short with exit 0. In the normal case one request more, asked beside
// the read (Odoo's count) or none (the caller knows how many there are); behind a cap, the rest
// is read in pages under it, which notice a cap of their own (client.pages: exit 6, one line).
import { CappedRead, type OdooClient } from '../core/client.js';
import type { Domain, OdooRecord } from '../core/types.js';

export interface WholeRead {
  fields: string[];
  context?: Record<string, unknown>;
  /**
   * Whether the reply is every record, where the caller knows how many there are (groups read
   * already): no count is asked then.
   */
  whole?: (rows: OdooRecord[]) => boolean;
  /**
   * In the model's own order, as an unordered search_read answers (the caller's output follows
   * it): behind a cap the records are then read again from the start, by id.
   */
  ownOrder?: boolean;
}

/** Every record of `domain`, by id, read whole: the reply, then the rest past it in pages under a cap. */
export async function readWhole(
  client: OdooClient,
  model: string,
  domain: Domain,
  q: WholeRead,
): Promise<OdooRecord[]> {
  const kw = {
    fields: q.fields,
    ...(q.ownOrder ? {} : { order: 'id' }),
    ...(q.context ? { context: q.context } : {}),
  };
  // The count is asked beside the read: one request more, no round trip more.
  const count = q.whole ? undefined : client.searchCount(model, domain, q.context);
  count?.catch(() => undefined);
  const rows = await client.searchRead(model, domain, kw);
  const n = count === undefined ? undefined : await count;
  return rest(client, model, domain, q, rows, q.whole ?? ((r) => r.length >= (n ?? 0)));
}

async function rest(
  client: OdooClient,
  model: string,
  domain: Domain,
  q: WholeRead,
  rows: OdooRecord[],
  whole: (rows: OdooRecord[]) => boolean,
): Promise<OdooRecord[]> {
  if (whole(rows)) return rows;
  const size = rows.length;
  // Pages go on by id: a reply in another order is read again from the start.
  if (q.ownOrder) rows = [];
  const last = rows[rows.length - 1];
  // Pages one under the reply's length: a cap answered that many, and the pages' overlap
  // (one record more) must fit under it too.
  for await (const page of client.pages({
    model,
    domain,
    fields: q.fields,
    order: 'id',
    pageSize: size > 1 ? size - 1 : 100,
    ...(last ? { after: { id: last.id } } : {}),
    ...(q.context ? { context: q.context } : {}),
  }))
    rows.push(...page);
  return rows;
}

/**
 * Every record of `domain` in pages by id of `pageSize`, for a command that takes no
 * --page-size (reconcile, report, books): a server that caps search_read below the pages is
 * read on in pages under its cap (what the capped page's line advises), from the last record
 * of the whole pages read. A page size the user asked (`asked`) is kept, a cap below it refused.
 */
export async function readPaged(
  client: OdooClient,
  q: { model: string; domain: Domain; fields: string[] },
  asked?: number,
): Promise<OdooRecord[]> {
  const rows: OdooRecord[] = [];
  let pageSize = asked ?? 2000;
  for (;;) {
    const last = rows[rows.length - 1];
    try {
      for await (const page of client.pages({
        ...q,
        order: 'id',
        pageSize,
        ...(last ? { after: { id: last.id } } : {}),
      }))
        rows.push(...page);
      return rows;
    } catch (err) {
      if (!(err instanceof CappedRead) || asked !== undefined || err.under >= pageSize) throw err;
      pageSize = err.under;
    }
  }
}
