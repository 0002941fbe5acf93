// `posdata doctor`: read-only checks of posdata against the logged-in server, one line per
// check (ok / differs / cannot, and why), or one JSON document; exit 7 when a figure differs.
import { command } from '../cli/command.js';
import {
  COMPANY,
  CONNECTION,
  type ConnectionOptions,
  connectionOptions,
  GLOBAL,
  group,
  SERVERS,
} from '../cli/flags.js';
import { positiveInt } from '../cli/values.js';
import type { OdooClient } from '../core/client.js';
import { DifferenceError, ServerError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { Check } from '../doctor/checks.js';
import { parseDay } from '../query/time.js';
import { checkZone, zoneFor } from '../query/zone.js';
import { visible } from '../render/visible.js';

export interface DoctorOptions {
  connection: ConnectionOptions;
  date: string;
  tz?: string;
  pageSize: number;
  format: 'text' | 'json';
}

export const doctor = command({
  name: 'doctor',
  // Over several servers: a report per server; two profiles of one database are two logins to check.
  servers: { join: 'reports', sameDatabase: true },
  flags: [
    group('own', [
      {
        spec: '--date <day>',
        description: 'the business day of the counts, summary and reconcile checks',
        default: 'yesterday',
      },
      {
        spec: '--tz <zone>',
        description: "IANA zone of the business day (default: the Odoo user's zone)",
        value: 'zone',
      },
      {
        spec: '--page-size <n>',
        description: 'records per request, as the exports read them (default 2000)',
        parse: positiveInt('--page-size'),
      },
      { spec: '--format <fmt>', description: 'text or json', choices: ['text', 'json'] },
      COMPANY,
    ]),
    CONNECTION,
    SERVERS,
    GLOBAL,
  ],
  examples: [
    'posdata doctor',
    'posdata doctor --date 2026-11-20',
    'posdata doctor --format json | jq ".checks[] | select(.status != \\"ok\\")"',
  ],
  options(f): DoctorOptions {
    const tz = f.tz;
    if (tz) checkZone(tz);
    const date = f.date;
    parseDay(date, tz ?? 'UTC', '--date');
    return {
      connection: connectionOptions(f),
      date,
      tz,
      pageSize: f.pageSize ?? 2000,
      format: f.format ?? 'text',
    };
  },
  async run(o, ctx) {
    const { io } = ctx;
    const session = await ctx.odoo(o.connection);
    const zone = zoneFor('range', o.tz, session.profile.tz);
    // The day as a date, in the shop's zone: every line names the same day.
    const day = parseDay(o.date, zone, '--date').toISODate() as string;
    const { runChecks } = await import('../doctor/checks.js');
    const checks: Check[] = [];
    const text = (c: Check): string => io.redactor.said(c.detail);
    // What the user sees: each company, its currency and its registers (every figure below is
    // in one of these currencies, never two added).
    // Only where there are several: a one-company database's report reads as it always has.
    const listed = await companyList(session.client);
    const companies = listed && listed.length > 1 ? listed : undefined;
    if (companies) {
      const c: Check = {
        check: 'companies',
        status: 'ok',
        detail: say`${own(
          companies
            .map(
              (x) =>
                `${x.id} ${visible(x.name)} (${visible(x.currency)}): ${x.registers.map((r) => visible(r)).join(', ') || 'no register'}`,
            )
            .join('; '),
        )}`,
      };
      checks.push(c);
      if (o.format === 'text') io.out.write(`${c.status.padEnd(8)}${c.check.padEnd(23)} ${text(c)}\n`);
    }
    for await (const c of runChecks(session.client, {
      date: day,
      zone,
      pageSize: o.pageSize,
      protocol: session.protocol,
    })) {
      checks.push(c);
      // Each line as soon as its check is done: a slow server shows where it is slow.
      if (o.format === 'text') io.out.write(`${c.status.padEnd(8)}${c.check.padEnd(23)} ${text(c)}\n`);
    }
    if (o.format === 'json') {
      const doc = {
        date: day,
        zone,
        ...(companies ? { companies } : {}),
        checks: checks.map((c) => ({
          check: c.check,
          status: c.status,
          detail: text(c),
          ...(c.figures ? { figures: c.figures } : {}),
        })),
      };
      io.out.write(`${JSON.stringify(doc, null, 2)}\n`);
    }
    const differ = checks.filter((c) => c.status === 'differs');
    if (differ.length > 0)
      throw new DifferenceError(
        say`${own(String(differ.length))} check${own(differ.length === 1 ? '' : 's')} found a figure that differs from Odoo's (${own(differ.map((c) => c.check).join(', '))})`,
        say`see the lines marked differs`,
      );
    // A check that could not be made for another reason than a documented limit: its code.
    const failed = checks.find((c) => c.failed)?.failed;
    if (failed) throw failed;
  },
});

/** The companies the user sees, with their currency and registers; undefined where Odoo refuses. */
async function companyList(
  client: OdooClient,
): Promise<{ id: number; name: string; currency: string; registers: string[] }[] | undefined> {
  const { runCompanies } = await import('../read/companies.js');
  try {
    const companies = await runCompanies(client);
    const configs = await client.searchRead('pos.config', [], {
      fields: ['name', 'company_id'],
      order: 'id',
    });
    return companies.map((c) => ({
      id: c.id,
      name: c.name,
      currency: c.currency,
      registers: configs
        .filter((r) => Array.isArray(r.company_id) && r.company_id[0] === c.id)
        .map((r) => String(r.name)),
    }));
  } catch (err) {
    if (err instanceof ServerError) return undefined;
    throw err;
  }
}
