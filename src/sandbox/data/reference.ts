/**
 * The reference data around the shop: currency, company, partners, the API users, the cashiers who
 * never log in, taxes, product and POS categories, employees (pos_hr). None of it draws from the
 * PRNG, so a seed gives the same orders whatever is added here.
 */

import { CASHIER_UIDS } from '../models.js';
import type { Rec, Stored } from '../types.js';
import { type Gen, insert } from './context.js';

export interface SandboxUser {
  login: string;
  password: string;
  uid: number;
  role: 'manager' | 'user' | 'clerk';
  name: string;
  label: string;
  tz: string | false;
  /** The companies the user is allowed in (--companies); every company where not given. */
  companies?: number[];
}

export const USERS: SandboxUser[] = [
  {
    login: 'admin',
    password: 'admin',
    uid: 2,
    role: 'manager',
    name: 'Mitchell Admin',
    label: 'POS administrator',
    tz: 'Europe/Brussels',
  },
  {
    login: 'pos',
    password: 'pos',
    uid: 6,
    role: 'user',
    name: 'Marc Demo',
    label: 'POS user',
    tz: 'Europe/Brussels',
  },
  {
    login: 'clerk',
    password: 'clerk',
    uid: 7,
    role: 'clerk',
    name: 'Joel Willis',
    label: 'no POS rights',
    tz: 'UTC',
  },
];

/**
 * With several companies (--companies): the POS user stays in company 1, and two users join,
 * as on a chain's Odoo: a manager allowed in every company, a cashier of company 2 only.
 */
export const COMPANY_USERS: SandboxUser[] = [
  {
    login: 'manager',
    password: 'manager',
    uid: 12,
    role: 'user',
    name: 'Nora Manager',
    label: 'POS user, every company',
    tz: 'Europe/Brussels',
  },
  {
    login: 'pos2',
    password: 'pos2',
    uid: 13,
    role: 'user',
    name: 'Sam Cashier',
    label: 'POS user, company 2 only',
    tz: 'America/New_York',
    companies: [2],
  },
];

/** A user's row: active, with its partner, and what its caller adds (company, stamps). */
function userRow(u: SandboxUser, partner: number, extra: Record<string, Stored>): Rec {
  return { id: u.uid, name: u.name, login: u.login, tz: u.tz, active: true, partner_id: partner, ...extra };
}

/** The users of a sandbox of `companies` companies, each with the companies it may see. */
export function usersOf(companies: number): SandboxUser[] {
  if (companies <= 1) return USERS;
  const all = Array.from({ length: companies }, (_, i) => i + 1);
  return [
    ...USERS.map((u) => ({ ...u, companies: u.role === 'user' ? [1] : all })),
    ...COMPANY_USERS.map((u) => ({ ...u, companies: u.companies ?? all })),
  ];
}

/** The companies after the first (--companies): name, the register tag, the currency. */
export const OTHER_COMPANIES = [
  { name: 'Shop US', tag: 'US', currency: 'USD', factor: 1.1, cashier: 13 },
  { name: 'Shop JP', tag: 'JP', currency: 'JPY', factor: 160, cashier: 12 },
  { name: 'Shop KW', tag: 'KW', currency: 'KWD', factor: 0.33, cashier: 12 },
];

/** A further company: its currency (id = company id), partner and company record, its users. */
export function companyData(g: Gen, id: number, name: string, users: SandboxUser[]): void {
  const ins = (model: string, rec: Parameters<typeof insert>[2]) => insert(g, model, rec);
  const c = g.currency;
  ins('res.currency', {
    id,
    name: c.name,
    symbol: c.symbol,
    decimal_places: c.decimals,
    rounding: 10 ** -c.decimals,
    position: c.position,
    ...g.stamp,
  });
  const partner = g.db.table('res.partner').nextId;
  ins('res.partner', { id: partner, name, ...g.stamp });
  ins('res.company', { id, name, currency_id: id, ...g.stamp });
  if (id !== 2) return;
  for (const u of users) {
    if (g.db.get('res.users', u.uid)) continue;
    const p = ins('res.partner', { id: g.db.table('res.partner').nextId, name: u.name, ...g.stamp });
    ins('res.users', userRow(u, p.id, { company_id: (u.companies ?? [1])[0] as number, ...g.stamp }));
  }
}

/** Cashiers who ring up orders but never log in through the API (uids in CASHIER_UIDS). */
const CASHIERS = ['Anita Oliver', 'Beth Evans', 'Ronnie Hart'];

/** Product categories (id, name, parent) and, per catalogue code prefix, the product's category. */
const CATEGORIES: [number, string, number | false][] = [
  [1, 'All', false],
  [2, 'Saleable', 1],
  [3, 'Office Furniture', 2],
  [4, 'Food & Drinks', 2],
  [5, 'Books', 2],
  [6, 'Gifts', 2],
];
export const CATEGORY_OF: Record<string, number> = { FURN: 3, FOOD: 4, BOOK: 5, GIFT: 6 };
const POS_CATEGORIES = ['Furniture', 'Food', 'Drinks', 'Books', 'Gifts'];
export const DRINKS = new Set(['FOOD_0001', 'FOOD_0002', 'FOOD_0005', 'FOOD_0006', 'FOOD_0010', 'FOOD_0011']);
export const POS_CATEGORY_OF: Record<string, number> = { FURN: 1, FOOD: 2, BOOK: 4, GIFT: 5 };

export const TAXES = [
  { id: 1, name: '15%', amount: 15 },
  { id: 2, name: '21%', amount: 21 },
  { id: 3, name: '6%', amount: 6 },
];

/** res.lang: id, code, name, installed (active). */
const LANGUAGES: [number, string, string, boolean][] = [
  [1, 'en_US', 'English (US)', true],
  [2, 'fr_BE', 'French (BE) / Français (BE)', true],
  [3, 'fr_FR', 'French / Français', false],
  [4, 'nl_BE', 'Dutch (BE) / Nederlands (BE)', false],
  [5, 'de_DE', 'German / Deutsch', false],
];

export function referenceData(g: Gen, posHr: boolean): void {
  const ins = (model: string, rec: Parameters<typeof insert>[2]) => insert(g, model, rec);
  const stamp = g.stamp;
  // Reference data: currency, company, partners, users, taxes.
  const c = g.currency;
  ins('res.currency', {
    id: 1,
    name: c.name,
    symbol: c.symbol,
    decimal_places: c.decimals,
    rounding: 10 ** -c.decimals,
    position: c.position,
    ...stamp,
  });
  ins('res.company', { id: 1, name: 'My Company', currency_id: 1, ...stamp });
  // Languages: Odoo has a record for each it knows; the installed ones are active. A
  // Brussels shop has French (Belgium) installed beside English.
  for (const [id, code, name, active] of LANGUAGES) ins('res.lang', { id, code, name, active, ...stamp });

  ins('res.partner', { id: 1, name: 'My Company', ...stamp });
  ins('res.partner', { id: 2, name: 'OdooBot', active: false, ...stamp });
  ins('res.users', {
    id: 1,
    name: 'OdooBot',
    login: '__system__',
    tz: false,
    active: false,
    partner_id: 2,
    ...stamp,
  });
  for (const u of USERS) {
    const partner = ins('res.partner', { id: u.uid + 1, name: u.name, ...stamp });
    ins('res.users', userRow(u, partner.id, stamp));
  }
  for (const t of TAXES)
    ins('account.tax', { id: t.id, name: t.name, amount: t.amount, type_tax_use: 'sale', ...stamp });
  // Reference data added later (cashiers, categories, employees) draws nothing from the PRNG, so a
  // seed keeps giving the data it gave before they existed.
  CASHIERS.forEach((name, i) => {
    const uid = CASHIER_UIDS[i] as number;
    const partner = ins('res.partner', { id: 20 + i, name, ...stamp });
    ins('res.users', {
      id: uid,
      name,
      login: name.split(' ')[0]?.toLowerCase(),
      tz: 'Europe/Brussels',
      active: true,
      partner_id: partner.id,
      ...stamp,
    });
  });
  const completeName = (id: number): string => {
    const c = CATEGORIES.find((x) => x[0] === id);
    if (!c) return '';
    return c[2] === false ? c[1] : `${completeName(c[2])} / ${c[1]}`;
  };
  for (const [id, name, parent] of CATEGORIES)
    ins('product.category', { id, name, complete_name: completeName(id), parent_id: parent, ...stamp });
  POS_CATEGORIES.forEach((name, i) => {
    ins('pos.category', { id: i + 1, name, parent_id: false, sequence: i + 1, ...stamp });
  });
  if (posHr) {
    const staff: [string, number | false][] = [
      ...USERS.filter((u) => u.role !== 'clerk').map((u): [string, number] => [u.name, u.uid]),
      ...CASHIERS.map((n, i): [string, number] => [n, CASHIER_UIDS[i] as number]),
      ['Ava Student', false],
    ];
    staff.forEach(([name, uid], i) => {
      ins('hr.employee', { id: i + 1, name, user_id: uid, active: true, ...stamp });
    });
  }
}
