// The options the two reports, summary and reconcile, read alike: where the output goes,
// which server, the business days (--date, or --from/--to) of one register or all, the zone
// they are cut in (checked here, before anything is asked of a server), and whether a
// difference ends the run with exit 7.
import { checkZone } from '../query/zone.js';
import { type CONNECTION, type ConnectionOptions, connectionOptions, type FlagValues } from './flags.js';
import type { IO } from './io.js';
import { type OUTPUT, type OutputOptions, outputOptions } from './output.js';

export interface ReportOptions {
  connection: ConnectionOptions;
  output: OutputOptions;
  date?: string;
  from?: string;
  to?: string;
  configId?: number;
  tz?: string;
  failOnDifference: boolean;
}

/** The flags both reports read, besides the output and connection ones. */
export type ReportFlags = FlagValues<[typeof OUTPUT, typeof CONNECTION]> & {
  readonly date?: string;
  readonly from?: string;
  readonly to?: string;
  readonly configId?: number;
  readonly tz?: string;
  readonly failOnDifference?: true;
};

export function reportOptions(f: ReportFlags, io: IO): ReportOptions {
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
