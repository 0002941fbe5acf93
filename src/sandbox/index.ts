/**
 * posdata's bundled sandbox: a local server that answers as Odoo 17 (or 19) does, over JSON-RPC
 * (and JSON-2 in 19 mode), filled with generated, arithmetically consistent POS data.
 * It is a separate program inside the package and shares no code with the client.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CURRENCIES, generate, usersOf } from './data.js';
import { FaultPlan, FaultSpecError } from './faults.js';
import { startLive } from './live.js';
import type { ApiKey, ServerState } from './rpc.js';
import { warmIndexes } from './search.js';
import { createServer } from './server.js';
import { fmtDatetime, fmtMicros } from './time.js';
import type { OdooVersion } from './types.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  seed?: number;
  orders?: number;
  days?: number;
  odooVersion?: OdooVersion;
  adminKey?: string;
  faults?: string;
  now?: Date;
  /**
   * The server's clock runs this many seconds from the machine's (negative: behind), as an
   * Odoo on another host with a drifting clock: its write_date stamps and its Date header.
   */
  clockOffsetSeconds?: number;
  /** false (19 only): /jsonrpc answers 404, as on an Odoo that has removed it. */
  jsonrpc?: boolean;
  /**
   * Model pos_hr (optional on a real server): hr.employee, and employee_id/cashier on orders;
   * on 18/19 employee_id on sessions and payments too.
   */
  posHr?: boolean;
  /**
   * pos_restaurant: the last register is the Restaurant (floors, tables, guests, tips on card
   * payments, a take-away fiscal position, change synced late from an offline tablet).
   */
  restaurant?: boolean;
  /** pos_loyalty: the "Shop Points" programme and its rewards, gift cards sold and redeemed. */
  loyalty?: boolean;
  /** pos_discount: global discount lines ("[DISC] Discount", one per tax group). */
  globalDiscount?: boolean;
  /**
   * Cashiers who stand out, for the report's loss-prevention section: Anita Oliver refunds
   * often, Beth Evans gives large discounts, Marc Demo's cash is short at the closings he runs.
   * Off by default: a seed's data stay as they were.
   */
  leaks?: boolean;
  /** The company's currency: EUR (default), USD, KWD, BHD, TND (3 decimals) or JPY (none). */
  currency?: string;
  /**
   * Companies (1 to 4; default 1): company 1 in `currency`, then Shop US (USD), Shop JP (JPY)
   * and Shop KW (KWD), each with its registers and `orders` orders; users allowed in one or all.
   */
  companies?: number;
  /**
   * Keep selling: an order every this many seconds in today's open sessions, through
   * create_from_ui (live.ts). Off by default.
   */
  live?: number;
}

export interface SandboxHandle {
  url: string;
  port: number;
  db: string;
  adminKey: string;
  users: {
    login: string;
    password: string;
    uid: number;
    role: string;
    apiKey?: string;
    /** The companies the user is allowed in, where the sandbox has several. */
    companies?: number[];
  }[];
  /** The companies (--companies), with their currency. */
  companies?: { id: number; name: string; currency: string }[];
  /** An API key of the admin that has expired (refused like an unknown key). */
  expiredKey?: string;
  /** What was generated, and how long it took. */
  stats?: { orders: number; lines: number; payments: number; sessions: number; ms: number };
  faults?: string;
  odooVersion?: OdooVersion;
  /** pos_hr is modelled (employees on orders). */
  posHr?: boolean;
  /** The other optional modules modelled (pos_restaurant, pos_loyalty, pos_discount). */
  modules?: string[];
  /** --live: seconds between orders, and how many it has sold. */
  live?: { everySeconds: number; sold(): number };
  requestCount(): number;
  close(): Promise<void>;
}

const DB_NAME = 'demo';

/** An option the sandbox cannot run with; `hint` says what to give instead. */
export class SandboxOptionError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

function faultPlan(spec: string, seed: number): FaultPlan {
  try {
    return new FaultPlan(spec, seed);
  } catch (err) {
    if (!(err instanceof FaultSpecError)) throw err;
    throw new SandboxOptionError(
      `--faults: ${err.message}`,
      "write rules as KIND@N, rate=P:KIND,KIND or every=K:KIND, separated by ';' (see posdata sandbox --help)",
    );
  }
}

function deriveKey(adminKey: string, who: string): string {
  return createHash('sha256').update(`${adminKey}:${who}`).digest('hex').slice(0, 40);
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = opts.host ?? '127.0.0.1';
  const version = opts.odooVersion ?? 17;
  const { seed, orders, days, companies, faults } = checkOptions(opts, version);
  const offsetMs = Math.round((opts.clockOffsetSeconds ?? 0) * 1000);
  const started = Date.now() + offsetMs;
  const dataNow = opts.now ?? new Date(started);
  // Records written through the API get the current time, never earlier than the data's own "now".
  const ahead = Math.max(0, dataNow.getTime() - started);
  const USERS = usersOf(companies);
  const { db, stats } = generate({
    seed,
    orders,
    days,
    version,
    now: dataNow,
    posHr: opts.posHr === true,
    restaurant: opts.restaurant === true,
    loyalty: opts.loyalty === true,
    globalDiscount: opts.globalDiscount === true,
    leaks: opts.leaks === true,
    currency: opts.currency,
    companies,
    booksDrift: faults?.books === true,
    booksFrench: faults?.booksFrench === true,
  });
  warmIndexes(db);
  db.searchReadCap = faults?.cap;
  db.groupLie = faults?.lie;
  const adminKey = opts.adminKey ?? randomBytes(20).toString('hex');
  const { keys, userKeys, expiredKey } = apiKeys(adminKey, USERS);
  const state: ServerState = {
    db,
    dbName: DB_NAME,
    version,
    accounts: USERS.map((u) => ({
      login: u.login,
      password: u.password,
      uid: u.uid,
      role: u.role,
      tz: u.tz,
      companies: u.companies,
    })),
    keys,
    now: () => fmtDatetime((Date.now() + offsetMs + ahead) / 1000),
    txNow: () => fmtMicros(performance.timeOrigin + performance.now() + offsetMs + ahead),
    clockOffsetMs: offsetMs,
    jsonrpc: opts.jsonrpc !== false,
  };
  const counter = { n: 0 };
  const server = createServer(state, faults, counter);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8069, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const live = opts.live && opts.live > 0 ? startLive(state, opts.live * 1000, seed) : undefined;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    db: DB_NAME,
    adminKey,
    users: USERS.map((u) => ({
      login: u.login,
      password: u.password,
      uid: u.uid,
      role: u.label,
      apiKey: userKeys.get(u.login),
      companies: u.companies,
    })),
    expiredKey,
    stats,
    companies: companies > 1 ? companyList(db) : undefined,
    faults: faults?.spec,
    odooVersion: version,
    posHr: opts.posHr === true,
    modules: [
      ...(opts.restaurant === true ? ['pos_restaurant'] : []),
      ...(opts.loyalty === true ? ['pos_loyalty'] : []),
      ...(opts.globalDiscount === true ? ['pos_discount'] : []),
    ],
    live: live && opts.live ? { everySeconds: opts.live, sold: live.sold } : undefined,
    requestCount: () => counter.n,
    close: () =>
      new Promise<void>((resolve) => {
        live?.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The options that shape the data and the faults, checked (in this order) before anything is generated. */
function checkOptions(
  opts: SandboxOptions,
  version: OdooVersion,
): { seed: number; orders: number; days: number; companies: number; faults?: FaultPlan } {
  if (![16, 17, 18, 19].includes(version))
    throw new Error(`unsupported Odoo version ${String(version)} (16, 17, 18 or 19)`);
  if (opts.jsonrpc === false && version !== 19)
    throw new Error('only an Odoo 19 sandbox can go without JSON-RPC');
  const seed = opts.seed ?? 1;
  const orders = opts.orders ?? 2000;
  const days = opts.days ?? 14;
  if (!Number.isInteger(orders) || orders < 0)
    throw new Error(`orders must be a whole number >= 0, not ${orders}`);
  if (!Number.isInteger(days) || days < 1) throw new Error(`days must be a whole number >= 1, not ${days}`);
  // A bad --faults is refused before the data is generated.
  const faults = opts.faults ? faultPlan(opts.faults, seed) : undefined;
  const companies = opts.companies ?? 1;
  if (!Number.isInteger(companies) || companies < 1 || companies > 4)
    throw new SandboxOptionError(
      `--companies ${companies} is not a number of companies the sandbox models`,
      'use 1 to 4',
    );
  if (opts.currency !== undefined && !(opts.currency in CURRENCIES))
    throw new SandboxOptionError(
      `--currency ${opts.currency} is not one the sandbox keeps books in`,
      `use one of ${Object.keys(CURRENCIES).join(', ')}`,
    );
  return { seed, orders, days, companies, faults };
}

/** The API keys: the admin's, one derived from it per other user, and an expired one of the admin. */
function apiKeys(
  adminKey: string,
  users: ReturnType<typeof usersOf>,
): { keys: Map<string, ApiKey>; userKeys: Map<string, string>; expiredKey: string } {
  const keys = new Map<string, ApiKey>();
  keys.set(adminKey, { uid: 2, expired: false });
  const userKeys = new Map<string, string>();
  userKeys.set('admin', adminKey);
  for (const u of users.slice(1)) {
    const k = deriveKey(adminKey, u.login);
    keys.set(k, { uid: u.uid, expired: false });
    userKeys.set(u.login, k);
  }
  const expiredKey = deriveKey(adminKey, 'expired');
  keys.set(expiredKey, { uid: 2, expired: true });
  return { keys, userKeys, expiredKey };
}

/** The companies and their currency, as the handle (and the banner) lists them. */
function companyList(
  db: ReturnType<typeof generate>['db'],
): { id: number; name: string; currency: string }[] {
  return db.table('res.company').rows.flatMap((c) =>
    c
      ? [
          {
            id: c.id,
            name: String(c.name),
            currency: String(db.get('res.currency', c.currency_id as number)?.name ?? ''),
          },
        ]
      : [],
  );
}

/** The banner `posdata sandbox` prints: URL first, then users, keys, data and faults. */
export function banner(h: SandboxHandle): string {
  const v = `${h.odooVersion ?? 17}.0`;
  const lines = [`posdata sandbox: Odoo ${v} on ${h.url} (database ${h.db})`];
  for (const u of h.users)
    lines.push(
      `  user ${u.login}/${u.password} (${u.role}), uid ${u.uid}${u.companies && h.companies ? `, companies ${u.companies.join(',')}` : ''}`,
    );
  for (const c of h.companies ?? []) lines.push(`  company ${c.id} ${c.name} (${c.currency})`);
  lines.push(`  admin API key: ${h.adminKey}`);
  for (const u of h.users.slice(1)) if (u.apiKey) lines.push(`  ${u.login} API key: ${u.apiKey}`);
  if (h.expiredKey) lines.push(`  expired API key (refused): ${h.expiredKey}`);
  if (h.stats) {
    const s = h.stats;
    lines.push(
      `  data: ${s.orders} orders, ${s.lines} lines, ${s.payments} payments, ${s.sessions} sessions (generated in ${Math.round(s.ms)} ms)`,
    );
  }
  if (h.live)
    lines.push(
      `  live: an order every ${h.live.everySeconds} s in today's open sessions (pos.order.create_from_ui)`,
    );
  if (h.posHr)
    lines.push(
      `  modules: pos_hr (hr.employee; employee_id and cashier on orders${(h.odooVersion ?? 17) >= 18 ? ', employee_id on sessions and payments' : ''})`,
    );
  if (h.modules?.length) lines.push(`  modules: ${h.modules.join(', ')}`);
  if (h.odooVersion === 19)
    lines.push(`  JSON-2: POST ${h.url}/json/2/<model>/<method> with Authorization: bearer <API key>`);
  lines.push(
    h.faults
      ? `  faults: ${h.faults} (grammar: KIND@N[,N] | rate=P:KIND,KIND | every=K:KIND | cap=N | books | books-fr | lie=LIE; KIND = 500 502 503 504 429 reset cut html notrpc slow[MS] expired; LIE = sum-text count-negative count-fraction sum-huge day-garbage; common.version probes exempt unless 'probes')`
      : '  faults: none',
  );
  lines.push('  Ctrl-C to stop');
  return `${lines.join('\n')}\n`;
}
