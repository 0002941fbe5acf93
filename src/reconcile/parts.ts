// The sessions of a run's companies reconciled: as one where they keep one currency, else
// one part per company (each read with only that company in allowed_company_ids, at its
// currency's decimals, its methods named with the company where names repeat). Shared by
// posdata reconcile and posdata serve's /api/v1/reconcile.
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import type { Domain } from '../core/types.js';
import type { Company } from '../read/companies.js';
import { DEFAULT_MONEY_DIGITS } from '../records/normalize.js';
import {
  fetchReconciliation,
  type OutRow,
  type Reconciliation,
  reconcile as reconcileSessions,
  sessionFields,
  toRow,
} from './compute.js';

export interface ReconcilePart {
  company?: Company;
  rec: Reconciliation;
}

/**
 * The sessions reconciled: as one where the run's companies keep one currency (a one-company
 * database reads as it always has), else per company, each read with only that company in
 * allowed_company_ids, at its currency's decimals, its methods named with it where names repeat.
 * `chain`: this server is one of a chain's (src/cli/servers.ts): per company whatever the
 * currencies, so every row says its currency, and every method column is `<name> · <currency>`,
 * one name for one method on every server and never a column of two currencies.
 */
export async function reconcileParts(
  client: OdooClient,
  domain: Domain,
  chain = false,
): Promise<ReconcilePart[]> {
  const { currenciesOf, runCompanies } = await import('../read/companies.js');
  let companies: Company[] | undefined;
  try {
    companies = await runCompanies(client);
  } catch (err) {
    if (!(err instanceof ServerError)) throw err;
  }
  if (!companies || (!chain && currenciesOf(companies).length <= 1)) {
    const { inputs } = await fetchReconciliation(client, domain);
    // The figures at the decimals of the company's currency (known with the companies).
    let digits = DEFAULT_MONEY_DIGITS;
    if (companies && companies.length > 0) digits = Math.max(...companies.map((c) => c.digits));
    else if (inputs.sessions.length > 0)
      digits = await (await import('../read/currency.js')).moneyDigits(client);
    return [{ rec: reconcileSessions(inputs, digits) }];
  }
  const parts: ReconcilePart[] = [];
  for (const c of companies) {
    const { inputs } = await fetchReconciliation(client.forCompanies([c.id]), domain);
    parts.push({ company: c, rec: reconcileSessions(inputs, c.digits) });
  }
  if (chain) for (const p of parts) rename(p, (k) => `${k} · ${p.company?.currency}`);
  else {
    // A method's name said once per company where two companies' methods share it.
    const seen = new Map<string, number>();
    for (const p of parts) for (const k of p.rec.methodKeys) seen.set(k, (seen.get(k) ?? 0) + 1);
    for (const p of parts) rename(p, (k) => ((seen.get(k) ?? 0) > 1 ? `${k} · ${p.company?.name}` : k));
  }
  return parts;
}

/** A part's method columns, and its sessions' figures, under the keys `to` gives. */
function rename(p: ReconcilePart, to: (key: string) => string): void {
  const renamed = new Map(p.rec.methodKeys.map((k) => [k, to(k)]));
  p.rec.methodKeys = p.rec.methodKeys.map((k) => renamed.get(k) ?? k);
  for (const s of p.rec.sessions) {
    const m: Record<string, number> = {};
    for (const [k, v] of Object.entries(s.byMethod)) m[renamed.get(k) ?? k] = v;
    s.byMethod = m;
  }
}

/**
 * The parts' sessions as rows; where the sessions are split by company, each row leads with
 * `company_id, company, currency` (as `posdata reconcile --format json` writes them).
 */
export function partRows(parts: ReconcilePart[], tz: string | undefined): OutRow[] {
  const split = parts.length > 1 || parts[0]?.company !== undefined;
  const fields = new Set(parts.flatMap((p) => sessionFields(p.rec).fields));
  const rows = parts.flatMap((part) =>
    part.rec.sessions.map((s) => {
      const row = toRow(s, part.rec.methodKeys, tz);
      return split
        ? {
            company_id: part.company?.id ?? null,
            company: part.company?.name ?? null,
            currency: part.company?.currency ?? null,
            ...row,
          }
        : row;
    }),
  );
  // Another company's method columns are empty, never 0 of a wrong currency.
  if (split) for (const r of rows) for (const k of fields) if (!(k in r)) r[k] = null;
  return rows;
}
