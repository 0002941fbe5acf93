// summary --by cashier --loss (or register): report's loss-prevention figures, from the same
// summary and the period's closings (reconcile's), one row per cashier or register.
import { writeOutput } from '../../cli/output.js';
import type { OdooClient } from '../../core/client.js';
import { ServerError, UsageError } from '../../core/errors.js';
import { say } from '../../core/redact.js';
import type { Domain } from '../../core/types.js';
import { inCurrency } from '../../records/normalize.js';
import { type SummaryOptions, type SummaryRun, writeRecords } from './options.js';

/** --loss: one key, cashier or register, and a plain summary (no --watch, --top or --check-odoo). */
export function checkLoss(o: SummaryOptions): void {
  if (!o.loss) return;
  if (o.by !== 'cashier' && o.by !== 'register')
    throw new UsageError(
      say`--loss sets each cashier or register against the others, not groups by ${o.by ?? 'register'}`,
      say`use --by cashier --loss or --by register --loss`,
    );
  if (o.watch !== undefined || o.checkOdoo || o.top !== undefined)
    throw new UsageError(say`--loss goes without --watch, --top and --check-odoo`, say`leave those out`);
}

/** The closed sessions of the summary's period (or its one session), as reconcile reads them. */
async function closings(o: SummaryOptions, client: OdooClient, zone: string) {
  const { fetchReconciliation, sessionsDomain } = await import('../../reconcile/compute.js');
  const domain =
    o.sessionId !== undefined
      ? [
          ['id', '=', o.sessionId],
          ['state', '=', 'closed'],
        ]
      : sessionsDomain(
          {
            date: o.date ?? (o.from === undefined && o.to === undefined ? 'today' : undefined),
            from: o.from,
            to: o.to,
            configId: o.configId,
          },
          zone,
        );
  return (await fetchReconciliation(client, domain as Domain)).inputs;
}

export async function runLoss({ o, ctx, client, zone, r }: SummaryRun): Promise<void> {
  const { reconcile } = await import('../../reconcile/compute.js');
  const { lossSection } = await import('../../report/loss.js');
  const { lossFields, lossRecord } = await import('../../report/loss-rows.js');
  const inputs = await closings(o, client, zone);
  const rec = reconcile(inputs, r.summary.digits);
  const cashier = o.by === 'cashier';
  const loss = await lossSection(client, {
    range: r.range,
    configId: o.configId,
    sessionId: o.sessionId,
    ...(cashier ? { cashier: r } : { register: r }),
    sessions: rec.sessions,
    sessionUsers: inputs.sessions.map((s) => ({
      id: s.id,
      user: Array.isArray(s.user_id) ? [s.user_id[0] as number, String(s.user_id[1])] : null,
    })),
    digits: r.summary.digits,
  });
  const [id, name] = cashier ? ['cashier_id', 'cashier'] : ['config_id', 'register'];
  let rows: Record<string, string | number | null>[] = (cashier ? loss.cashiers : loss.registers).map((x) =>
    lossRecord(x, id, name),
  );
  let { fields, defs } = lossFields(id, name);
  if (ctx.inChain === true) {
    // Over several servers every row says its currency (docs/chains.md): a EUR server's sales
    // and a USD one's were one column with nothing to tell them apart.
    const currency = await runCurrency(client);
    rows = rows.map((x) => ({ currency, ...x }));
    fields = ['currency', ...fields];
    defs = { currency: { type: 'char' }, ...defs };
  }
  await writeOutput(ctx, o.output.path, async (sink) => {
    const out = {
      fields,
      defs: inCurrency(defs, r.summary.digits),
      zone,
      noun: cashier ? 'cashiers' : 'registers',
    };
    await writeRecords(o, ctx.io, sink, out, rows);
    return undefined;
  });
}

/**
 * The one currency of the run's companies (--loss stops where they keep several), null where
 * Odoo refuses the user res.company (the summary then reads as one, without its currency).
 */
async function runCurrency(client: OdooClient): Promise<string | null> {
  const { currenciesOf, runCompanies } = await import('../../read/companies.js');
  try {
    return currenciesOf(await runCompanies(client))[0] ?? null;
  } catch (err) {
    if (err instanceof ServerError) return null;
    throw err;
  }
}
