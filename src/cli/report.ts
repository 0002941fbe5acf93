// The options the two reports, summary and reconcile, read alike: where the output goes,
// which server, the business days (--date, or --from/--to) of one register or all, the zone
// they are cut in (checked here, before anything is asked of a server), and whether a
// difference ends the run with exit 7.
import { checkZone } from '../query/zone.js';
import { type ConnectionOptions, connectionOptions, type Flags } from './flags.js';
import type { IO } from './io.js';
import { type OutputOptions, outputOptions } from './output.js';

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

export function reportOptions(f: Flags, io: IO): ReportOptions {
  const output = outputOptions(f, io);
  const tz = f.tz as string | undefined;
  if (tz) checkZone(tz);
  return {
    connection: connectionOptions(f),
    output,
    date: f.date as string | undefined,
    from: f.from as string | undefined,
    to: f.to as string | undefined,
    configId: f.configId as number | undefined,
    tz,
    failOnDifference: f.failOnDifference === true,
  };
}
