// The options the two reports, summary and reconcile, read alike: where the output goes,
// which server, the business days (--date, or --from/--to: query/period.ts declares them) of
// one register or all, the zone they are cut in (checked here, before anything is asked of a
// server), and whether a difference ends the run with exit 7.
import type { DATE, FROM, TO } from '../query/period.js';
import { checkZone } from '../query/zone.js';
import type { CONFIG_ID, CONNECTION, ConnectionOptions, FlagValues } from './flags.js';
import { connectionOptions } from './flags.js';
import type { IO } from './io.js';
import { type OUTPUT, type OutputOptions, outputOptions } from './output.js';

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
