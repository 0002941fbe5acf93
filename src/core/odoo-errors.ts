// Odoo's error replies (JSON-RPC `error.data`, or a JSON-2 error body) mapped to posdata's
// typed errors. Shared by both transports: the exception names are the same on both.
import { AuthError, NotFoundError, type PosdataError, ServerError, UsageError } from './errors.js';
import { own, say } from './redact.js';

export interface OdooErrorData {
  name?: string;
  message?: string;
  arguments?: unknown[];
  debug?: string;
}

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}

/**
 * The groups an AccessError says may do what was refused ("This operation is allowed for the
 * following groups:" then one "\t- Group" per line, as 16-19 word it), or none.
 */
export function allowedGroups(message: string): string[] {
  const at = message.indexOf('following groups:');
  if (at < 0) return [];
  const groups: string[] = [];
  for (const line of message.slice(at).split('\n').slice(1)) {
    const m = /^\s*- (.+)$/.exec(line);
    if (m) groups.push((m[1] as string).trim());
    else if (groups.length > 0 || line.trim() !== '') break;
  }
  return groups;
}

/**
 * The models Odoo keeps to the call's companies by a record rule (point_of_sale_security.xml,
 * 16-19): a record of another company is refused by id ("top-secret records"), not hidden.
 */
const COMPANY_RULED = new Set([
  'pos.order',
  'pos.session',
  'pos.config',
  'pos.payment',
  'pos.payment.method',
  'report.pos.order',
]);

export function mapOdooError(
  data: OdooErrorData,
  where: { host: string; db: string; model?: string; code?: number; status?: number },
): PosdataError {
  const name = data.name ?? 'unknown';
  const msg = firstLine(data.message ?? '');
  const short = name.replace(/^odoo\.exceptions\.|^builtins\.|^werkzeug\.exceptions\./, '');
  if (where.code === 100 || /SessionExpired/.test(name)) {
    return new AuthError(say`the Odoo session expired`, say`run posdata login again`);
  }
  if (name === 'odoo.exceptions.AccessDenied') {
    return new AuthError(
      say`${where.host} rejected the credentials (Access Denied)`,
      say`check the password or API key and run posdata login again`,
    );
  }
  if (name === 'odoo.exceptions.MissingError' && /res\.users\(/.test(data.message ?? '')) {
    return new AuthError(say`the stored user id does not exist on this server`, say`run posdata login again`);
  }
  if (name === 'psycopg2.OperationalError' && /database .* does not exist/.test(data.message ?? '')) {
    const m = /database "([^"]+)" does not exist/.exec(data.message ?? '');
    return new AuthError(
      say`database '${m?.[1] ?? where.db}' does not exist on ${where.host}`,
      say`check --db (posdata whoami shows the stored one)`,
    );
  }
  if (name === 'odoo.exceptions.MissingError') {
    return new NotFoundError(say`not found: ${msg}`, say`check the identifier`);
  }
  if (name === 'odoo.exceptions.AccessError') {
    // The groups Odoo names: a POS user refused accounting records (a session's bank
    // payments) needs an accounting group, not the POS group they already have.
    const groups = allowedGroups(data.message ?? '');
    // A company outside the user's (--company, or a context asking for it): no group helps.
    if (/unauthorized or invalid compan/i.test(data.message ?? ''))
      return new ServerError(
        name,
        say`Odoo refused access: ${msg}`,
        say`give --company only companies this user may see (Odoo's user form, Allowed Companies), or leave --company out to read all of them`,
        where.status,
      );
    // A record rule refused records by id (an order or session named): on these models the
    // rule is the company's; the user has the group already.
    if (/top-secret records/.test(msg) && COMPANY_RULED.has(where.model ?? ''))
      return new ServerError(
        name,
        say`Odoo refused access to a ${own(where.model ?? '')} record of a company this run does not read (Odoo's company rule)`,
        say`name its company with --company (by default every company the user may see), or ask an Odoo administrator to allow the user in it (Allowed Companies)`,
        where.status,
      );
    return new ServerError(
      name,
      say`Odoo refused access: ${msg}`,
      groups.length > 0
        ? say`ask an Odoo administrator for one of the groups Odoo allows it to: ${groups.join(', ')}`
        : say`ask an Odoo administrator for the Point of Sale / User group`,
      where.status,
    );
  }
  if (name === 'builtins.ValueError' && /^Invalid field/.test(msg)) {
    return new UsageError(say`Odoo: ${msg}`, say`run with --fields to see the valid fields`);
  }
  return new ServerError(
    name,
    say`Odoo refused the request: ${short}: ${msg || own('no message')}`,
    undefined,
    where.status,
  );
}
