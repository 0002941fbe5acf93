// `posdata reconcile`: flags → the closed sessions of a range → figures per session →
// table, json, ndjson or csv on a sink → exit 7 with --fail-on-difference.
import type { ConnectionOptions } from '../cli/connection.js';
import { openSession } from '../cli/connection.js';
import type { IO } from '../cli/io.js';
import { onInterrupt } from '../cli/live.js';
import { checkOutput, chooseFormat, makeRenderer, openSink } from '../cli/output.js';
import { DifferenceError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { FieldMap } from '../core/types.js';
import { checkZone, machineZone } from '../query/time.js';
import {
  AMOUNT_KEYS,
  BASE_KEYS,
  beyond,
  fetchReconciliation,
  type Reconciliation,
  reconcile,
  sessionsDomain,
  toRow,
} from './compute.js';

export interface ReconcileOptions extends ConnectionOptions {
  date?: string;
  from?: string;
  to?: string;
  configId?: number;
  tz?: string;
  tolerance?: number;
  failOnDifference?: boolean;
  format?: string;
  output?: string;
  excel?: boolean;
}

export async function runReconcile(o: ReconcileOptions, io: IO): Promise<void> {
  // Everything that can be checked without the server is checked first.
  const format = chooseFormat(o.format, o.output, io);
  // A folder or a device for -o is refused before anything is asked of the server.
  checkOutput(o);
  if (o.tz) checkZone(o.tz);
  const tolerance = o.tolerance ?? 0.01;
  // The syntax of the range does not depend on the zone: refuse a bad one before connecting.
  sessionsDomain(o, o.tz ?? 'UTC');

  const session = await openSession(o, io);
  const { client } = session;
  // The business day is the shop's: --tz, else the Odoo user's zone, else this machine's.
  const zone = o.tz ?? session.profile.tz ?? machineZone();
  const { inputs } = await fetchReconciliation(client, sessionsDomain(o, zone));
  const rec = reconcile(inputs);
  if (rec.adjusted.length > 0 && !io.quiet) {
    const e = rec.adjusted[0];
    io.err(
      `posdata: note: for ${rec.adjusted.length} session${rec.adjusted.length === 1 ? '' : 's'} (e.g. ${e.session}) expected cash is Odoo's theoretical balance, not opening + cash taken + cash moves as recorded; cash moves shows the gap (see README, reconcile)`,
    );
  }

  const toFile = o.output !== undefined && o.output !== '-';
  const sink = await openSink(o.output);
  const release = onInterrupt(() => sink.abort());
  try {
    if (format === 'table') {
      const { renderReconcileTable } = await import('./table.js');
      await sink.write(
        renderReconcileTable(rec, {
          columns: toFile ? 200 : io.columns,
          color: io.color && !toFile,
          tz: zone,
          tolerance,
        }),
      );
    } else {
      const { fields, defs } = sessionFields(rec);
      const renderer = await makeRenderer({
        format,
        sink,
        fields,
        defs,
        excel: o.excel,
        io,
        tz: zone,
        preferred: fields,
        noun: 'sessions',
        toFile,
      });
      await renderer.begin();
      await renderer.page(rec.sessions.map((s) => toRow(s, rec.methodKeys, o.tz)));
      await renderer.end();
    }
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  } finally {
    release();
  }
  if (toFile && !io.quiet && io.stderrTTY)
    io.err(`posdata: wrote ${rec.sessions.length} sessions to ${o.output}`);
  await client.close();

  if (o.failOnDifference) {
    const differing = rec.sessions.filter((s) => beyond(s.difference, tolerance));
    if (differing.length > 0) {
      const worst = differing.reduce((a, b) => (Math.abs(b.difference) > Math.abs(a.difference) ? b : a));
      const d = worst.difference;
      throw new DifferenceError(
        say`${differing.length} of ${rec.sessions.length} sessions ${differing.length === 1 ? own('differs') : own('differ')} by more than ${tolerance} (largest ${d > 0 ? own('+') : ''}${d.toFixed(2)} in ${worst.session}, ${worst.register})`,
        say`check the counted cash of those sessions`,
      );
    }
  }
}

/** Opened and closed: Odoo's UTC times (ISO with an offset under --tz). */
const TIME_KEYS = ['opened', 'closed'] as const;

/** The rows' fields and their types for csv and Parquet: ids stay numbers, amounts numbers, times instants, the rest text. */
function sessionFields(rec: Reconciliation): { fields: string[]; defs: FieldMap } {
  const fields = [...BASE_KEYS, ...rec.methodKeys];
  const defs: FieldMap = {};
  for (const k of fields) {
    defs[k] = {
      type:
        k === 'session_id' || k === 'config_id'
          ? 'integer'
          : (AMOUNT_KEYS as readonly string[]).includes(k) || k.startsWith('method:')
            ? 'monetary'
            : (TIME_KEYS as readonly string[]).includes(k)
              ? 'datetime'
              : 'char',
    };
  }
  return { fields, defs };
}
