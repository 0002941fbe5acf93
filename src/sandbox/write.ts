/** create, write and unlink, with the links Odoo keeps (x2many lists, related fields, write stamps). */
import { checkAccess } from './access.js';
import { missingError, OdooError, userError } from './errors.js';
import { companyCurrency } from './money.js';
import { invalidField } from './read.js';
import type { Db, FieldDef, ModelDef } from './store.js';
import type { Env, Json, Rec, Stored } from './types.js';

function convertValue(_db: Db, field: FieldDef, v: unknown): Stored {
  if (v === null || v === undefined) return false;
  switch (field.type) {
    case 'many2one':
      if (Array.isArray(v)) return typeof v[0] === 'number' ? v[0] : false;
      return typeof v === 'number' ? v : false;
    case 'one2many':
    case 'many2many':
      return commandsToIds(v);
    case 'integer':
    case 'float':
    case 'monetary':
      return typeof v === 'number' ? v : Number(v) || 0;
    case 'boolean':
      return v === true || v === 1;
    default:
      return typeof v === 'string' || typeof v === 'number' ? v : v === false ? false : String(v);
  }
}

/** x2many write commands: a plain id list, (6, 0, ids), (4, id), (3, id), (5,); (0, 0, vals) is handled by the caller. */
function commandsToIds(v: unknown, current: number[] = []): number[] {
  if (!Array.isArray(v)) return current;
  if (v.every((x) => typeof x === 'number')) return v as number[];
  let ids = [...current];
  for (const c of v) {
    if (!Array.isArray(c)) continue;
    const [cmd, id, arg] = c as [number, number, unknown];
    if (cmd === 6 && Array.isArray(arg)) ids = arg.filter((x): x is number => typeof x === 'number');
    else if (cmd === 4 && !ids.includes(id)) ids.push(id);
    else if (cmd === 3 || cmd === 2) ids = ids.filter((x) => x !== id);
    else if (cmd === 5) ids = [];
  }
  return ids;
}

/** Keep the parent's x2many list in step when a child points at it. */
function attachToParent(
  db: Db,
  parentModel: string,
  parentId: unknown,
  field: string,
  childId: number,
): void {
  if (typeof parentId !== 'number') return;
  const parent = db.get(parentModel, parentId);
  if (!parent) return;
  const def = db.models.get(parentModel)?.fields.get(field);
  const list = def ? (db.value(def, parent) as number[]) : [];
  const next = field === 'payment_ids' ? [childId, ...list] : [...list, childId];
  parent[field] = next;
  db.changed(parentModel);
}

export function create(db: Db, env: Env, model: ModelDef, valsArg: unknown): Json {
  const single = !Array.isArray(valsArg);
  const list = (single ? [valsArg] : (valsArg as unknown[])) as unknown[];
  const table = db.table(model.name);
  const now = env.now();
  const stamp = env.txNow();
  // A line's subtotal, where it is not given, at the company currency's decimals.
  const money = companyCurrency(db).round;
  const created: number[] = [];
  for (const raw of list) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      const py =
        raw === null || raw === undefined
          ? 'NoneType'
          : Array.isArray(raw)
            ? 'list'
            : typeof raw === 'string'
              ? 'str'
              : typeof raw === 'number'
                ? 'int'
                : 'bool';
      throw new OdooError('builtins.AttributeError', `'${py}' object has no attribute 'items'`);
    }
    const vals = raw as Record<string, unknown>;
    const rec: Rec = { id: table.nextId };
    const children: { field: FieldDef; vals: Record<string, unknown> }[] = [];
    for (const [k, v] of Object.entries(vals)) {
      const f = model.fields.get(k);
      if (!f) throw invalidField(db, model, k);
      if (f.name === 'id' || (f.compute && !f.searchable)) continue;
      if (f.type === 'one2many' && Array.isArray(v)) {
        for (const c of v)
          if (Array.isArray(c) && c[0] === 0 && c[2] && typeof c[2] === 'object')
            children.push({ field: f, vals: c[2] as Record<string, unknown> });
      }
      if (f.compute) continue;
      rec[k] = convertValue(db, f, v);
    }
    rec.create_date = stamp;
    rec.write_date = stamp;
    rec.create_uid = env.uid;
    rec.write_uid = env.uid;
    if (model.name === 'pos.order') {
      rec.date_order ??= now;
      rec.state ??= 'draft';
      rec.name ??= '/';
      rec.lines ??= [];
      rec.payment_ids ??= [];
      for (const k of ['amount_total', 'amount_tax', 'amount_paid', 'amount_return']) rec[k] ??= 0;
      if (rec.session_id !== undefined && rec.config_id === undefined) {
        rec.config_id = db.get('pos.session', rec.session_id as number)?.config_id ?? false;
      }
    } else if (model.name === 'pos.payment') {
      rec.payment_date ??= now;
      rec.session_id ??= db.get('pos.order', rec.pos_order_id as number)?.session_id ?? false;
      rec.is_change ??= false;
    } else if (model.name === 'pos.order.line') {
      const qty = typeof rec.qty === 'number' ? rec.qty : 1;
      const price = typeof rec.price_unit === 'number' ? rec.price_unit : 0;
      const disc = typeof rec.discount === 'number' ? rec.discount : 0;
      rec.qty = qty;
      rec.price_subtotal ??= money(qty * price * (1 - disc / 100));
      rec.price_subtotal_incl ??= rec.price_subtotal;
    } else if (model.name === 'pos.session') {
      rec.state ??= 'opening_control';
      rec.name ??= `POS/${String(rec.id).padStart(5, '0')}`;
      rec.user_id ??= env.uid;
      rec.start_at ??= false;
    } else if (model.name === 'pos.config') {
      rec.payment_method_ids ??= [];
      rec.active ??= true;
    }
    table.insert(rec);
    created.push(rec.id);
    db.changed(model.name);
    if (model.name === 'pos.order.line') attachToParent(db, 'pos.order', rec.order_id, 'lines', rec.id);
    if (model.name === 'pos.payment')
      attachToParent(db, 'pos.order', rec.pos_order_id, 'payment_ids', rec.id);
    for (const c of children) {
      const childModel = db.models.get(c.field.relation ?? '');
      if (childModel && c.field.inverse)
        create(db, env, childModel, { ...c.vals, [c.field.inverse]: rec.id });
    }
  }
  return single ? (created[0] as number) : created;
}

export function write(db: Db, env: Env, model: ModelDef, ids: number[], valsArg: unknown): Json {
  const vals = (valsArg && typeof valsArg === 'object' ? valsArg : {}) as Record<string, unknown>;
  for (const k of Object.keys(vals)) if (!model.fields.has(k)) throw invalidField(db, model, k);
  const stamp = env.txNow();
  const table = db.table(model.name);
  for (const id of ids) {
    const rec = table.get(id) as Rec;
    for (const [k, v] of Object.entries(vals)) {
      const f = model.fields.get(k) as FieldDef;
      if (f.name === 'id' || f.compute) continue;
      rec[k] =
        f.type === 'one2many' || f.type === 'many2many'
          ? commandsToIds(v, db.value(f, rec) as number[])
          : convertValue(db, f, v);
    }
    // config_id is stored but related to the session (17) or computed from it (19).
    if (model.name === 'pos.order' && 'session_id' in vals && !('config_id' in vals)) {
      rec.config_id = db.get('pos.session', rec.session_id as number)?.config_id ?? false;
    }
    rec.write_date = stamp;
    rec.write_uid = env.uid;
  }
  db.changed(model.name);
  return true;
}

export function unlink(db: Db, env: Env, model: ModelDef, ids: number[]): Json {
  const table = db.table(model.name);
  const missing = ids.filter((id) => !table.get(id));
  if (missing.length > 0) throw missingError(model.name, missing, env.uid);
  checkAccess(model, env, 'unlink');
  if (model.name === 'pos.order') {
    for (const id of ids) {
      const state = table.get(id)?.state;
      if (state !== 'draft' && state !== 'cancel')
        throw userError('In order to delete a sale, it must be new or cancelled.');
    }
  }
  for (const id of ids) {
    const rec = table.get(id) as Rec;
    if (model.name === 'pos.order') {
      const f = model.fields;
      for (const l of db.value(f.get('lines') as FieldDef, rec) as number[])
        db.table('pos.order.line').remove(l);
      for (const p of db.value(f.get('payment_ids') as FieldDef, rec) as number[])
        db.table('pos.payment').remove(p);
      db.changed('pos.order.line');
      db.changed('pos.payment');
    }
    table.remove(id);
  }
  db.changed(model.name);
  return true;
}
