/**
 * What a Sales Details call covers: the orders (a date range, possibly per register, or sessions)
 * and the sessions it "resolves" — only those get counted cash and bank figures. Odoo resolves
 * sessions when `session_ids` is given, or when `config_ids` is given and a session lies wholly
 * inside the range; a date range alone resolves none.
 */
import { fromLocal, toLocal } from '../calendar.js';
import { pyRepr, valueError } from '../errors.js';
import type { Db } from '../store.js';
import { fmtDatetime, parseDatetime } from '../time.js';
import type { Env, Json, Rec } from '../types.js';
import { idList, searchAs } from './query.js';

export interface SaleDetailsArgs {
  date_start: unknown;
  date_stop: unknown;
  config_ids: unknown;
  session_ids: unknown;
}

export interface Scope {
  /** session_ids as Python sees it: a non-empty list is true. */
  bySession: boolean;
  configIds: number[];
  /** The range as naive UTC strings (a date-range call), else the arguments as given. */
  dateStart: Json;
  dateStop: Json;
  /** The report's orders, in pos.order's default order (date_order desc, name desc, id desc). */
  orders: Rec[];
  /** The resolved sessions, in pos.session's order (id desc). */
  sessions: Rec[];
  /** The registers named in the report: those asked for, else one per resolved session. */
  configs: Rec[];
}

/** `2026-11-24` alone is midnight; Odoo's from_string accepts both forms. */
const DATETIME_FORMAT = '%Y-%m-%d %H:%M:%S';

/**
 * fields.Datetime.from_string as Odoo 17 has it: `datetime.strptime(value,
 * DATETIME_FORMAT[:len(value) - 2])`. A date alone, a time to the hour, the minute or the second
 * are read; anything else is Python's ValueError in strptime's words (an ISO `T`, fractions of
 * a second, a word), where the sandbox used to read what it could, or loop on a word.
 */
function fromString(value: string): number {
  const format = DATETIME_FORMAT.slice(0, Math.max(0, value.length - 2));
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2})(?::(\d{2})(?::(\d{2}))?)?)?/.exec(value);
  if (m && m[0].length === value.length) {
    const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0)) as number[];
    // strptime's %m, %d, %H, %M and %S match 1-12, 1-31, 0-23, 0-59 and 0-61 only; the day
    // of the month is checked after.
    const outside = (mo as number) < 1 || (mo as number) > 12 || (d as number) < 1 || (d as number) > 31;
    if (outside || (h as number) > 23 || (mi as number) > 59 || (se as number) > 61)
      throw valueError(`time data ${pyRepr(value)} does not match format ${pyRepr(format)}`);
    const t = Date.UTC(y as number, (mo as number) - 1, d, h, mi, Math.min(se as number, 59));
    if (new Date(t).getUTCDate() !== d || (mo as number) > 12)
      throw valueError('day is out of range for month');
    return t / 1000;
  }
  if (format.replace(/%[YmdHMS]/g, '').endsWith('%')) throw valueError(`stray % in format ${pyRepr(format)}`);
  if (m && format === DATETIME_FORMAT && m[0].length === 19)
    throw valueError(`unconverted data remains: ${value.slice(19)}`);
  throw valueError(`time data ${pyRepr(value)} does not match format ${pyRepr(format)}`);
}

/**
 * The range: date_start or today 00:00 in the context's (else the user's) zone; date_stop or
 * start + 1 day - 1 s, also when it comes before the start.
 */
function range(env: Env, args: SaleDetailsArgs): [number, number] {
  let start: number;
  if (typeof args.date_start === 'string' && args.date_start) start = fromString(args.date_start);
  else {
    const tz = env.tz || 'UTC';
    const todayLocal = Math.floor(toLocal(parseDatetime(env.now()), tz) / 86400) * 86400;
    start = fromLocal(todayLocal, tz);
  }
  let stop = start + 86399;
  if (typeof args.date_stop === 'string' && args.date_stop) {
    const s = fromString(args.date_stop);
    if (s >= start) stop = s;
  }
  return [start, stop];
}

export function resolveScope(db: Db, env: Env, args: SaleDetailsArgs): Scope {
  const sessionIds = idList(args.session_ids);
  const configIds = idList(args.config_ids);
  const bySession = sessionIds.length > 0;
  const states = db.version === 19 ? ['paid', 'done'] : ['paid', 'invoiced', 'done'];
  const domain: unknown[] = [['state', 'in', states]];
  let dateStart: Json = (args.date_start ?? false) as Json;
  let dateStop: Json = (args.date_stop ?? false) as Json;
  if (bySession) domain.push(['session_id', 'in', sessionIds]);
  else {
    const [start, stop] = range(env, args);
    dateStart = fmtDatetime(start);
    dateStop = fmtDatetime(stop);
    domain.push(['date_order', '>=', dateStart], ['date_order', '<=', dateStop]);
    if (configIds.length > 0) domain.push(['config_id', 'in', configIds]);
  }
  const orders = searchAs(db, env, 'pos.order', domain);

  let configs: Rec[] = [];
  let sessions: Rec[];
  if (configIds.length > 0) {
    configs = searchAs(db, env, 'pos.config', [['id', 'in', configIds]]);
    sessions = bySession
      ? searchAs(db, env, 'pos.session', [['id', 'in', sessionIds]])
      : searchAs(db, env, 'pos.session', [
          ['config_id', 'in', configs.map((c) => c.id)],
          ['start_at', '>=', dateStart],
          ['stop_at', '<=', dateStop],
        ]);
  } else {
    sessions = searchAs(db, env, 'pos.session', [['id', 'in', sessionIds]]);
    for (const s of sessions) {
      const c = db.get('pos.config', s.config_id as number);
      if (c) configs.push(c);
    }
  }
  return { bySession, configIds, dateStart, dateStop, orders, sessions, configs };
}
