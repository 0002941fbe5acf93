/** Reads the Sales Details report makes, as the calling user (so with the caller's AccessErrors). */
import { checkAccess } from '../access.js';
import { search } from '../search.js';
import type { Db, FieldDef, ModelDef } from '../store.js';
import type { Env, Json, Rec } from '../types.js';

export type Dict = { [k: string]: Json };

/** `env[model].search(domain, order=...)`: the access check, then the records. */
export function searchAs(
  db: Db,
  env: Env,
  model: string,
  domain: unknown[],
  order: string | null = null,
): Rec[] {
  const m = db.models.get(model) as ModelDef;
  checkAccess(m, env, 'read');
  return search(db, env, m, domain, 0, null, order);
}

/** A field's value on a record (stored, defaulted or computed). */
export function value(db: Db, model: string, field: string, r: Rec): unknown {
  const f = db.models.get(model)?.fields.get(field) as FieldDef;
  return db.value(f, r);
}

export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** A many2one, a list of ids or a single id, as Python's truthiness and `in` see it. */
export function idList(v: unknown): number[] {
  if (Array.isArray(v)) return v.filter((x): x is number => typeof x === 'number');
  return typeof v === 'number' ? [v] : [];
}
