// The options the two reports, summary and reconcile, read alike: where the output goes,
// which server, the business days (--date, or --from/--to: query/period.ts declares them) of
// one register or all, the zone they are cut in (checked here, before anything is asked of a
// server), and whether a difference ends the run with exit 7.

import type { FieldMap } from '../core/types.js';
import { CLOSED_FROM, CLOSED_TO, DATE, type FROM, type TO } from '../query/period.js';
import { checkZone, tzHelp, zoneFor } from '../query/zone.js';
import { type SessionRange, sessionsDomain } from '../reconcile/compute.js';
import type { Row } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';
import type { Context } from './context.js';
import type { ConnectionOptions, FlagValues } from './flags.js';
import { CONFIG_ID, CONNECTION, connectionOptions, flag, GLOBAL, SERVERS } from './flags.js';
import type { IO } from './io.js';
import { OUTPUT, type OutputOptions, outputOptions, tableLook } from './output.js';

export interface PeriodOptions {
  connection: ConnectionOptions;
  output: OutputOptions;
  date?: string;
  from?: string;
  to?: string;
  configId?: number;
  tz?: string;
  failOnDifference: boolean;
}

/** The flags both reports read, as their declarations type them. */
type PeriodFlags = FlagValues<
  [
    typeof OUTPUT,
    typeof CONNECTION,
    { name: 'own'; flags: [typeof DATE, typeof FROM, typeof TO, typeof CONFIG_ID] },
  ]
> & {
  readonly tz?: string;
  readonly failOnDifference?: true;
};

export function periodOptions(f: PeriodFlags, io: IO): PeriodOptions {
  const output = outputOptions(f, io);
  const tz = f.tz;
  if (tz) checkZone(tz);
  return {
    connection: connectionOptions(f),
    output,
    date: f.date,
    from: f.from,
    to: f.to,
    configId: f.configId,
    tz,
    failOnDifference: f.failOnDifference === true,
  };
}

/** The sessions' range of reconcile and books: one business day, or closing times from and to, of one register. */
export const SESSION_RANGE = [DATE, CLOSED_FROM, CLOSED_TO, CONFIG_ID] as const;

/** The zone whose business day a report reads. */
export const BUSINESS_TZ = flag({
  spec: '--tz <zone>',
  description: tzHelp('the business day'),
  value: 'zone',
});

/** The flags after a report's own: where the output goes, which server or servers, the global ones. */
export const REPORT_FLAGS = [OUTPUT, CONNECTION, SERVERS, GLOBAL] as const;

/** A range of sessions checked before connecting: its syntax does not depend on the zone. */
export function checkedRange<O extends SessionRange & { tz?: string }>(o: O): O {
  sessionsDomain(o, o.tz ?? 'UTC');
  return o;
}

/**
 * The Odoo session of a report over closed sessions, and the zone of its business day (--tz,
 * else the Odoo user's zone, else this machine's).
 */
export async function sessionsAndZone(o: PeriodOptions & SessionRange, ctx: Context) {
  const session = await ctx.odoo(o.connection);
  const zone = zoneFor('range', o.tz, session.profile.tz);
  return { session, zone, domain: sessionsDomain(o, zone) };
}

/** A report's rows in json, ndjson, csv or parquet: written whole, between the renderer's begin and end. */
export async function writeReportRows(
  io: IO,
  output: OutputOptions,
  sink: Sink,
  c: { fields: string[]; defs: FieldMap; zone: string; noun: string },
  rows: Row[],
): Promise<void> {
  const { makeRenderer } = await import('../render/renderer.js');
  const renderer = await makeRenderer({
    format: output.format,
    sink,
    fields: c.fields,
    defs: c.defs,
    excel: output.excel,
    delimiter: output.delimiter,
    decimal: output.decimal,
    ...tableLook(io, output.file !== undefined),
    tz: c.zone,
    preferred: c.fields,
    noun: c.noun,
  });
  await renderer.begin();
  await renderer.page(rows);
  await renderer.end();
}
