// A first read of a whole model (no watermark or bookmark yet), shared by `posdata sync` and
// `posdata tap`: pages in id order (the fast pages: no sort or walk by write_date on the
// server, which a table of tens of thousands of records sharing one write_date second makes
// slow), up to the newest write_date there is when it starts. `until` comes from the data,
// not the clock, so two reads of the same data end at the same second. A first read cut
// short goes on after its last id, up to the same second. Once it has read everything, the
// consumer goes on incrementally by (write_date, id) from `until` less the overlap: Odoo
// keeps write_date to the microsecond and answers whole seconds, so rows of second `until`
// committed after the first read passed them come then.
import type { OdooClient } from '../core/client.js';
import type { Domain, OdooRecord } from '../core/types.js';

/** Odoo's UTC text, `YYYY-MM-DD HH:MM:SS`. */
export const ODOO_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Odoo's UTC text one second later. */
export function nextSecond(odoo: string): string {
  return new Date(Date.parse(`${odoo.replace(' ', 'T')}Z`) + 1000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ');
}

/**
 * The newest write_date of the model's records within `domain` (one request), or undefined
 * when it has none.
 */
export async function newestWriteDate(
  client: OdooClient,
  model: string,
  domain: Domain,
  context?: Record<string, unknown>,
): Promise<string | undefined> {
  const [newest] = await client.searchRead(model, domain, {
    fields: ['write_date'],
    order: 'write_date desc, id desc',
    limit: 1,
    context,
  });
  const wd = newest?.write_date;
  return typeof wd === 'string' && ODOO_TIME.test(wd) ? wd : undefined;
}

/** Where a first read stands: up to the end of second `until`, ids above `afterId` still to read. */
export interface FirstRead {
  until: string;
  afterId: number;
}

/** The first read's domain (read in `id` order): `base`, up to the end of its second, after its last id. */
export function firstReadDomain(read: FirstRead, base: Domain = []): Domain {
  const domain: Domain = [...base, ['write_date', '<', nextSecond(read.until)]];
  if (read.afterId > 0) domain.push(['id', '>', read.afterId]);
  return domain;
}

/** The highest id among `records` written in second `second` (0 if none). */
export function highestIdOf(records: OdooRecord[], second: string): number {
  let id = 0;
  for (const r of records) if (r.write_date === second && r.id > id) id = r.id;
  return id;
}

/**
 * How far a write_date may lie ahead of the server's clock and still move a watermark or a
 * bookmark (seconds): the Date header has whole seconds, and a write commits a moment after
 * its write_date.
 */
export const AHEAD_MARGIN_SECONDS = 60;

/**
 * The latest write_date (Odoo's UTC text) a watermark may move to: the server's clock by
 * its latest reply's Date header (this machine's where it sends none), plus the margin. A
 * record dated beyond it (a clock that jumped ahead, a restored VM, an import, a lying
 * proxy) would move the watermark to where every later window is empty.
 */
export function clockLimit(client: OdooClient): string {
  const there = client.transport.serverDate;
  // The header rounds down: the server's clock is within the second after it.
  const now = there !== undefined ? there + 1000 : Date.now();
  return new Date(now + AHEAD_MARGIN_SECONDS * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The server's clock as Odoo writes it (its whole second, never later than this machine's):
 * where a first read that found a record dated ahead of the clock stops. Not clockLimit: its
 * margin is for telling what is ahead; a watermark stored at it would be a minute ahead
 * itself, and what is written in that minute would never be read with an --overlap under it.
 */
export function clockSecond(client: OdooClient): string {
  return client.serverNow().toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Where a watermark may move after a page in (write_date, id) order: the last second of the
 * records before the first one dated beyond `limit`, with the highest id of that second
 * among them (undefined when the page starts with such a record), and that record.
 */
export function markBefore(
  records: readonly OdooRecord[],
  limit: string,
): { mark?: { wd: string; id: number }; ahead?: OdooRecord } {
  let k = 0;
  for (; k < records.length; k++) {
    const wd = records[k]?.write_date;
    if (typeof wd === 'string' && wd > limit) break;
  }
  const ahead = records[k];
  if (k === 0) return { ahead };
  const wd = records[k - 1]?.write_date as string;
  let id = 0;
  for (let i = k - 1; i >= 0 && records[i]?.write_date === wd; i--)
    id = Math.max(id, records[i]?.id as number);
  return { mark: { wd, id }, ahead };
}
