/**
 * Odoo domains evaluated in memory, with Odoo's semantics: Polish-notation `& | !` with implicit AND,
 * many2one compared by id (or by display name when given a string), dotted paths through relations
 * (x2many: "any related record matches"), `!=`/`not in`/`not like` also matching empty values, date-only
 * strings against datetimes, and non-stored fields ignored (17) or refused (19).
 */
import { datePart, NUMBER_GRANULARITIES, toLocal, validZone } from './calendar.js';
import { leafRepr, missingError, OdooError, pyRepr, valueError } from './errors.js';
import { multiCompany } from './money.js';
import type { Db, FieldDef, ModelDef } from './store.js';
import { fmtDatetime, parseDatetime, tzOffset } from './time.js';
import type { Env, Rec, Stored } from './types.js';

/** Whether the record with this id matches (predicates read fields by id, through a Reader). */
export type Predicate = (id: number) => boolean;

/**
 * How a compiled domain reads a field by id: off the rows (`Db.byRow`, a search that visits a
 * page) or from columns (`Db.byColumn`, a grouping that visits every row).
 */
export type Reader = (model: string, field: FieldDef) => (id: number) => Stored;

export const rowReader =
  (db: Db): Reader =>
  (model, field) =>
    db.byRow(model, field);
export const columnReader =
  (db: Db): Reader =>
  (model, field) =>
    db.byColumn(model, field);

/**
 * Odoo's multi-company record rule on `model` as this call sees it (`company_id in company_ids`,
 * or no company: shared; a company itself only where it is one of them), undefined where none
 * applies: one company in the data, a model Odoo keeps no such rule on (noCompanyRule), res.users.
 * A search applies it to its model, and so does every search it makes through a relation
 * (`order_id.date_order`, `order_id any`, a many2one compared with a name): Odoo searches the
 * comodel there, with the comodel's rules.
 */
export function companyRule(db: Db, env: Env, model: ModelDef, read: Reader): Predicate | undefined {
  const seen = env.companies;
  if (!seen || model.noCompanyRule || !multiCompany(db)) return undefined;
  const set = new Set(seen);
  if (model.name === 'res.company') return (id) => set.has(id);
  const f = model.fields.get('company_id');
  if (!f || model.name === 'res.users') return undefined;
  const company = read(model.name, f);
  return (id) => {
    const c = company(id);
    return c === false || set.has(c as number);
  };
}

/** `pred` where the comodel's record rule lets the record be seen (a search on it would find it). */
export function ruled(rule: Predicate | undefined, pred: Predicate): Predicate {
  return rule ? (id) => rule(id) && pred(id) : pred;
}

export interface CompiledDomain {
  /** undefined: every record matches. */
  pred: Predicate | undefined;
  /** Bounds on id from top-level AND leaves, so a scan in id order can start and stop early. */
  idLo: number;
  idHi: number;
  /** Bounds on a field that every match satisfies, so a scan in that field's order can start late and stop early. */
  bounds: (field: FieldDef) => FieldBounds;
  /**
   * For a domain of ANDed leaves: the predicate without the leaves on `field` that its bounds
   * stand for, for a scan of that field's index that starts and stops at those bounds (the
   * index has tested them, as a database's index condition does).
   */
  inIndex?: (field: FieldDef) => Predicate | undefined;
}

/** [value, inclusive]. */
export type Bound = [number | string, boolean];
export interface FieldBounds {
  lo?: Bound;
  hi?: Bound;
}

const FULL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * What a domain implies about one field, e.g. the keyset page `write_date > w OR (write_date = w
 * AND id > n)` implies `write_date >= w`. Only plain comparisons with values that compare the way
 * the sort keys do (numbers; full datetime strings; other text) count; anything else leaves the
 * field unbounded, which is always safe because the filter still runs on every candidate.
 */
function boundsOf(n: Node, field: FieldDef): FieldBounds {
  switch (n.kind) {
    case 'leaf': {
      if (n.field !== field.name) return {};
      const v = n.value;
      const numeric = ['integer', 'float', 'monetary'].includes(field.type);
      const ok = numeric
        ? typeof v === 'number'
        : typeof v === 'string' &&
          (field.type !== 'datetime' || FULL_DATETIME.test(v)) &&
          !['many2one', 'boolean'].includes(field.type);
      if (!ok) return {};
      const b = v as number | string;
      switch (n.op) {
        case '>':
          return { lo: [b, false] };
        case '>=':
          return { lo: [b, true] };
        case '<':
          return { hi: [b, false] };
        case '<=':
          return { hi: [b, true] };
        case '=':
        case '==':
          return { lo: [b, true], hi: [b, true] };
        default:
          return {};
      }
    }
    case 'and': {
      const a = boundsOf(n.a, field);
      const b = boundsOf(n.b, field);
      return { lo: tighter(a.lo, b.lo, 1), hi: tighter(a.hi, b.hi, -1) };
    }
    case 'or': {
      const a = boundsOf(n.a, field);
      const b = boundsOf(n.b, field);
      return {
        lo: a.lo && b.lo ? looser(a.lo, b.lo, 1) : undefined,
        hi: a.hi && b.hi ? looser(a.hi, b.hi, -1) : undefined,
      };
    }
    default:
      return {};
  }
}

/** The stricter of two lower (dir 1) or upper (dir -1) bounds. */
function tighter(a: Bound | undefined, b: Bound | undefined, dir: 1 | -1): Bound | undefined {
  if (!a) return b;
  if (!b) return a;
  if (typeof a[0] !== typeof b[0]) return a;
  if (a[0] === b[0]) return [a[0], a[1] && b[1]];
  return a[0] > b[0] === (dir === 1) ? a : b;
}

function looser(a: Bound, b: Bound, dir: 1 | -1): Bound | undefined {
  if (typeof a[0] !== typeof b[0]) return undefined;
  if (a[0] === b[0]) return [a[0], a[1] || b[1]];
  return a[0] < b[0] === (dir === 1) ? a : b;
}

const OPERATORS = new Set([
  '=',
  '!=',
  '<>',
  '==',
  '<',
  '<=',
  '>',
  '>=',
  '=?',
  'in',
  'not in',
  'like',
  'not like',
  'ilike',
  'not ilike',
  '=like',
  '=ilike',
  'not =like',
  'not =ilike',
  'child_of',
  'parent_of',
  'any',
  'not any',
]);
const NEGATIVE = new Set(['!=', 'not in', 'not like', 'not ilike', 'not =like', 'not =ilike', 'not any']);

type Node =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'leaf'; pred: Predicate; field: string; op: string; value: unknown }
  | { kind: 'and' | 'or'; a: Node; b: Node }
  | { kind: 'not'; a: Node };

const isLeaf = (x: unknown): x is unknown[] => Array.isArray(x);

export function compileDomain(
  db: Db,
  model: ModelDef,
  domain: unknown,
  env: Env,
  read: Reader = rowReader(db),
): CompiledDomain {
  let idLo = 1;
  let idHi = Number.MAX_SAFE_INTEGER;
  const none = (): FieldBounds => ({});
  if (domain === null || domain === undefined || domain === false)
    return { pred: undefined, idLo, idHi, bounds: none };
  if (!Array.isArray(domain)) throw valueError(`Invalid domain: ${String(domain)}`);
  if (domain.length === 0) return { pred: undefined, idLo, idHi, bounds: none };
  if (db.version < 19 && isFalse(domain))
    return { pred: () => false, idLo: Number.MAX_SAFE_INTEGER, idHi: 0, bounds: none };
  const onlyAnd = domain.every((t) => t === '&' || isLeaf(t));
  const stack: Node[] = [];
  for (let i = domain.length - 1; i >= 0; i--) {
    const item = domain[i];
    if (item === '!') {
      const a = stack.pop();
      if (!a) throw valueError(`Invalid domain ${JSON.stringify(domain)}`);
      stack.push({ kind: 'not', a });
    } else if (item === '&' || item === '|') {
      const a = stack.pop();
      const b = stack.pop();
      if (!a || !b) throw valueError(`Invalid domain ${JSON.stringify(domain)}`);
      stack.push({ kind: item === '&' ? 'and' : 'or', a, b });
    } else if (isLeaf(item)) {
      stack.push(compileLeaf(db, model, item, env, read));
      // `id in [...]` reads only the rows between its least and greatest id, as Odoo's
      // primary key index does.
      if (onlyAnd && item[0] === 'id' && item[1] === 'in' && Array.isArray(item[2])) {
        let least = Number.POSITIVE_INFINITY;
        let greatest = Number.NEGATIVE_INFINITY;
        for (const x of item[2]) {
          if (typeof x !== 'number') {
            least = Number.NEGATIVE_INFINITY;
            greatest = Number.POSITIVE_INFINITY;
            break;
          }
          least = Math.min(least, x);
          greatest = Math.max(greatest, x);
        }
        // An empty list matches nothing: the bounds cross.
        if (item[2].length === 0) idLo = Number.MAX_SAFE_INTEGER;
        else if (Number.isFinite(least) && Number.isFinite(greatest)) {
          idLo = Math.max(idLo, Math.ceil(least));
          idHi = Math.min(idHi, Math.floor(greatest));
        }
      }
      if (onlyAnd && item[0] === 'id' && typeof item[2] === 'number') {
        const v = item[2];
        const op = String(item[1]);
        if (op === '>') idLo = Math.max(idLo, Math.floor(v) + 1);
        else if (op === '>=') idLo = Math.max(idLo, Math.ceil(v));
        else if (op === '<') idHi = Math.min(idHi, Math.ceil(v) - 1);
        else if (op === '<=') idHi = Math.min(idHi, Math.floor(v));
        else if (op === '=' || op === '==') {
          idLo = Math.max(idLo, v);
          idHi = Math.min(idHi, v);
        }
      }
    } else if (item === true || item === 1) {
      stack.push({ kind: 'true' });
    } else {
      throw valueError(`Invalid domain term ${JSON.stringify(item)}`);
    }
  }
  let node = stack.pop() as Node;
  while (stack.length > 0) node = { kind: 'and', a: node, b: stack.pop() as Node };
  const root = node;
  return {
    pred: onlyAnd ? allOf(root) : toPredicate(root),
    idLo,
    idHi,
    bounds: (field) => boundsOf(root, field),
    ...(onlyAnd
      ? {
          inIndex: (field: FieldDef) =>
            allOf(root, (n) => {
              if (n.kind !== 'leaf' || n.field !== field.name) return false;
              const { lo, hi } = boundsOf(n, field);
              return lo !== undefined || hi !== undefined;
            }),
        }
      : {}),
  };
}

/** Python's truth value of a JSON value. */
const pyTruthy = (v: unknown): boolean => {
  if (v === false || v === null || v === undefined || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
};

/**
 * 16-18's `expression.is_false`, which `_search` and `_read_group` ask before reading a leaf:
 * three-valued logic (-1 false, 0 unknown, +1 true) where `in` with a falsy value (`[]`,
 * False, None, 0, '') is false and `not in` with one true. A domain it finds false matches
 * nothing, whatever its other leaves say (an unknown field there raises nothing). A domain
 * that is not well-formed is left to the compile, which reports it.
 */
function isFalse(domain: unknown[]): boolean {
  const stack: number[] = [];
  for (let i = domain.length - 1; i >= 0; i--) {
    const t = domain[i];
    if (t === '!') {
      const a = stack.pop();
      if (a === undefined) return false;
      stack.push(-a);
    } else if (t === '&' || t === '|') {
      const a = stack.pop();
      const b = stack.pop();
      if (a === undefined || b === undefined) return false;
      stack.push(t === '&' ? Math.min(a, b) : Math.max(a, b));
    } else if (Array.isArray(t) && t.length === 3) {
      const [l, o, r] = t;
      const one = (x: unknown): boolean => x === 1 || x === true;
      if (o === '=' && one(r) && (one(l) || l === 0 || l === false)) stack.push(one(l) ? 1 : -1);
      else if (o === 'in' && !pyTruthy(r)) stack.push(-1);
      else if (o === 'not in' && !pyTruthy(r)) stack.push(1);
      else stack.push(0);
    } else if (Array.isArray(t)) {
      return false;
    } else {
      stack.push(0);
    }
  }
  // normalize_domain's implicit '&' between what is left.
  return stack.length > 0 && Math.min(...stack) === -1;
}

/** A leaf that reads another model's records (`order_id.amount_total`, `any`): the dearer kind. */
const reachesOut = (n: Node): boolean =>
  n.kind === 'leaf' && (n.field.includes('.') || n.op === 'any' || n.op === 'not any');

/**
 * The predicate of a domain of ANDed leaves, as a database plans it: the leaves on the record's
 * own fields first, those that go through a relation after, each only for the records the
 * others left (the order changes no answer: a leaf has no effect but its result).
 */
function allOf(root: Node, tested: (n: Node) => boolean = () => false): Predicate | undefined {
  const leaves: Node[] = [];
  const collect = (n: Node): void => {
    if (n.kind === 'and') {
      collect(n.a);
      collect(n.b);
    } else if (!tested(n)) leaves.push(n);
  };
  collect(root);
  if (leaves.some((n) => n.kind === 'false')) return () => false;
  const preds = [...leaves.filter((n) => !reachesOut(n)), ...leaves.filter(reachesOut)]
    .map(toPredicate)
    .filter((p): p is Predicate => p !== undefined);
  if (preds.length === 0) return undefined;
  if (preds.length === 1) return preds[0];
  return (id) => {
    for (const p of preds) if (!p(id)) return false;
    return true;
  };
}

function toPredicate(n: Node): Predicate | undefined {
  switch (n.kind) {
    case 'true':
      return undefined;
    case 'false':
      return () => false;
    case 'leaf':
      return n.pred;
    case 'not': {
      const a = toPredicate(n.a);
      return a ? (id) => !a(id) : () => false;
    }
    case 'and': {
      const a = toPredicate(n.a);
      const b = toPredicate(n.b);
      if (!a) return b;
      if (!b) return a;
      return (id) => a(id) && b(id);
    }
    case 'or': {
      const a = toPredicate(n.a);
      const b = toPredicate(n.b);
      if (!a || !b) return undefined;
      return (id) => a(id) || b(id);
    }
  }
}

function compileLeaf(db: Db, model: ModelDef, leaf: unknown[], env: Env, read: Reader): Node {
  const v19 = db.version === 19;
  const where = v19 ? 'condition' : 'leaf';
  if (leaf.length !== 3) throw valueError(`Invalid ${where} ${leafRepr(leaf)}`);
  const [left, rawOp, value] = leaf;
  if ((left === 1 || left === 0) && rawOp === '=' && value === 1)
    return { kind: left === 1 ? 'true' : 'false' };
  if (typeof left !== 'string' || typeof rawOp !== 'string')
    throw valueError(`Invalid ${where} ${leafRepr(leaf)}`);
  const op0 = rawOp.toLowerCase();
  if (!OPERATORS.has(op0))
    throw valueError(
      v19 ? `Invalid operator in condition ${leafRepr(leaf)}` : `Invalid leaf ${leafRepr(leaf)}`,
    );
  const path = left.split('.');
  const pred = pathPredicate(db, model, path, op0, value, env, leaf, read);
  return pred === 'true' ? { kind: 'true' } : { kind: 'leaf', pred, field: left, op: op0, value };
}

function pathPredicate(
  db: Db,
  model: ModelDef,
  path: string[],
  op: string,
  value: unknown,
  env: Env,
  leaf: unknown[],
  read: Reader,
): Predicate | 'true' {
  const v19 = db.version === 19;
  const name = path[0] as string;
  const field = model.fields.get(name);
  if (!field)
    throw valueError(
      `Invalid field ${model.name}.${name} in ${v19 ? 'condition' : 'leaf'} ${leafRepr(leaf)}`,
    );
  if (!field.store && !field.searchable) {
    // 16-18 log "Non-stored field cannot be searched" and drop the leaf; 19 refuses.
    if (v19) throw valueError(`Cannot convert ${model.name}.${name} to SQL because it is not stored`);
    return 'true';
  }
  const get = read(model.name, field);
  const comodel = field.relation ? db.models.get(field.relation) : undefined;

  // 18+: a date part of a date or datetime (`date_order.hour_number`), in the context's zone.
  const part = path[1] !== undefined ? NUMBER_GRANULARITIES[path[1]] : undefined;
  if (db.version >= 18 && path.length === 2 && part && (field.type === 'date' || field.type === 'datetime'))
    return datePartPredicate(field, get, part, op, value, env, leaf);

  if (path.length > 1) {
    if (!comodel)
      throw valueError(
        `Invalid field ${model.name}.${path.join('.')} in ${v19 ? 'condition' : 'leaf'} ${leafRepr(leaf)}`,
      );
    return throughRelation(db, model, field, comodel, get, { path, op, value, env, leaf, read });
  }

  if (op === 'any' || op === 'not any') {
    if (!comodel) throw valueError(`Invalid ${v19 ? 'condition' : 'leaf'} ${leafRepr(leaf)}`);
    const inner = compileDomain(db, comodel, value, { ...env, activeTest: false }, read).pred ?? (() => true);
    const p = relatedMatch(
      db,
      field,
      comodel,
      ruled(companyRule(db, env, comodel, read), inner),
      get,
      JSON.stringify([model.name, name, 'any', value, env.tz, env.companies]),
    );
    return op === 'any' ? p : (id) => !p(id);
  }

  if (op === 'child_of' || op === 'parent_of')
    return hierarchyPredicate(db, env, model, field, get, op, value, leaf);

  const o = normalizedOperator(db.version, op, value);
  if (o === 'true') return 'true';
  // Relations compared with a string go through the comodel's display name (name_search).
  if (
    comodel &&
    (typeof value === 'string' || (Array.isArray(value) && value.some((x) => typeof x === 'string')))
  )
    return byDisplayName(db, field, comodel, get, o, value, companyRule(db, env, comodel, read));
  if (field.type === 'one2many' || field.type === 'many2many') {
    const p = x2manyPredicate(get, o, value);
    if (!p) throw valueError(`Invalid ${v19 ? 'condition' : 'leaf'} ${leafRepr(leaf)}`);
    return p;
  }
  return scalarPredicate(db, field, get, o, value, env);
}

/** 18+: a leaf on a date part (`date_order.hour_number`), read in the context's zone for a datetime. */
function datePartPredicate(
  field: FieldDef,
  get: (id: number) => Stored,
  part: string,
  op: string,
  value: unknown,
  env: Env,
  leaf: unknown[],
): Predicate {
  const tz = field.type === 'datetime' && validZone(env.groupTz) ? env.groupTz : false;
  const wanted = (Array.isArray(value) ? value : [value]).filter((x): x is number => typeof x === 'number');
  const test: Record<string, (n: number) => boolean> = {
    '=': (n) => wanted.includes(n),
    in: (n) => wanted.includes(n),
    '!=': (n) => !wanted.includes(n),
    'not in': (n) => !wanted.includes(n),
    '<': (n) => n < (wanted[0] ?? 0),
    '<=': (n) => n <= (wanted[0] ?? 0),
    '>': (n) => n > (wanted[0] ?? 0),
    '>=': (n) => n >= (wanted[0] ?? 0),
  };
  const t = test[op];
  if (!t) throw valueError(`Invalid condition ${leafRepr(leaf)}`);
  return (id) => {
    const v = get(id);
    if (typeof v !== 'string' || v === '') return false;
    const local = field.type === 'date' ? Date.parse(`${v}T00:00:00Z`) / 1000 : toLocal(parseDatetime(v), tz);
    return t(datePart(local, part));
  };
}

/** A dotted leaf (`session_id.config_id`): the rest of the path searched on the comodel. */
function throughRelation(
  db: Db,
  model: ModelDef,
  field: FieldDef,
  comodel: ModelDef,
  get: (id: number) => Stored,
  leaf: { path: string[]; op: string; value: unknown; env: Env; leaf: unknown[]; read: Reader },
): Predicate {
  const { path, op, value, env } = leaf;
  // 16-18 search the comodel with the rest of the path (`any`), is_false first: `in` a falsy
  // value finds none there.
  const none = db.version < 19 && op === 'in' && !pyTruthy(value);
  const sub = none
    ? () => false
    : pathPredicate(
        db,
        comodel,
        path.slice(1),
        op,
        value,
        { ...env, activeTest: false },
        leaf.leaf,
        leaf.read,
      );
  const rule = companyRule(db, env, comodel, leaf.read);
  if (sub === 'true' && field.type === 'many2one' && !rule) return (id) => typeof get(id) === 'number';
  const key = JSON.stringify([model.name, path, op, value, env.tz, env.companies]);
  return relatedMatch(db, field, comodel, ruled(rule, sub === 'true' ? () => true : sub), get, key);
}

/**
 * normalize_leaf: `<>` is `!=`, `==` is `=`; `in` a boolean is `=` it (16-18; 19 reads `in
 * False` as an empty list), `=` a list is `in` it; `=?` nothing is no condition at all ('true').
 */
function normalizedOperator(version: number, op: string, value: unknown): string {
  let o = op === '<>' ? '!=' : op === '==' ? '=' : op;
  if (version < 19 && typeof value === 'boolean' && (o === 'in' || o === 'not in'))
    o = o === 'in' ? '=' : '!=';
  if (Array.isArray(value) && (o === '=' || o === '!=')) o = o === '=' ? 'in' : 'not in';
  if (o === '=?') {
    if (value === false || value === null || value === undefined) return 'true';
    o = '=';
  }
  return o;
}

/** A relation compared with names: the comodel's records whose display name matches (name_search). */
function byDisplayName(
  db: Db,
  field: FieldDef,
  comodel: ModelDef,
  get: (id: number) => Stored,
  o: string,
  value: unknown,
  rule: Predicate | undefined,
): Predicate {
  const positive = NEGATIVE.has(o) ? positiveOf(o) : o;
  const names = Array.isArray(value)
    ? value.filter((x): x is string => typeof x === 'string')
    : [value as string];
  const test = stringTest(positive === 'in' ? '=' : positive, names);
  const ids = new Set<number>();
  for (const c of db.table(comodel.name).rows)
    if (c && test(comodel.displayName(c, db)) && (!rule || rule(c.id))) ids.add(c.id);
  if (Array.isArray(value)) for (const x of value) if (typeof x === 'number') ids.add(x);
  const hit = idsHit(field, get, ids);
  return NEGATIVE.has(o) ? (id) => !hit(id) : hit;
}

/** A one2many or many2many compared with ids (or with False: empty); undefined for another operator. */
function x2manyPredicate(get: (id: number) => Stored, o: string, value: unknown): Predicate | undefined {
  const list = value === false || value === null ? [] : Array.isArray(value) ? value : [value];
  const ids = new Set(list.filter((x): x is number => typeof x === 'number'));
  const empty = value === false || value === null;
  const has = (rid: number): boolean => {
    const v = get(rid);
    if (!Array.isArray(v)) return false;
    if (empty) return v.length > 0;
    for (const id of v) if (ids.has(id)) return true;
    return false;
  };
  if (o === '=' || o === 'in') return empty ? (id) => !has(id) : has;
  if (o === '!=' || o === 'not in') return empty ? has : (id) => !has(id);
  return undefined;
}

/**
 * `child_of` / `parent_of` (expression.py): on `id`, the records below (or above) the given
 * ones in the model's tree; on a relation to another model, the records whose related record is
 * in that model's tree; on a relation to the model itself, the field is the parent link and the
 * records are those of the tree (on `id`). Any other field has no SQL operator for it: 16-18's
 * KeyError.
 */
function hierarchyPredicate(
  db: Db,
  env: Env,
  model: ModelDef,
  field: FieldDef,
  get: (id: number) => Stored,
  op: 'child_of' | 'parent_of',
  value: unknown,
  leaf: unknown[],
): Predicate {
  const relational = field.type === 'many2one' || field.type === 'one2many' || field.type === 'many2many';
  const tree = field.name === 'id' ? model : relational ? db.models.get(field.relation ?? '') : undefined;
  if (!tree) {
    if (db.version === 19)
      throw valueError(
        `Cannot execute ${op} for ${model.name}.${field.name}, works only for relational fields in condition ${leafRepr(leaf)}`,
      );
    throw new OdooError('builtins.KeyError', op);
  }
  const ids = hierarchyIds(db, tree, value);
  if (field.name === 'id' || tree.name === model.name) {
    const parent = field.name === 'id' || field.type === 'many2many' ? 'parent_id' : field.name;
    const found = hierarchy(db, env, tree, op, ids, parent);
    return (id) => found.has(id);
  }
  return idsHit(field, get, hierarchy(db, env, tree, op, ids, 'parent_id'));
}

/** expression.py `to_ids`: names (name_search, `ilike`), an id (0 and False: none) or a list of ids. */
function hierarchyIds(db: Db, tree: ModelDef, value: unknown): number[] {
  const names =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'string')
        ? (value as string[])
        : [];
  if (names.length > 0) {
    const tests = names.map((n) => stringTest('ilike', [n]));
    const found: number[] = [];
    for (const c of db.table(tree.name).rows) {
      if (!c) continue;
      const name = tree.displayName(c, db);
      if (tests.some((t) => t(name))) found.push(c.id);
    }
    return found;
  }
  if (typeof value === 'number') return value ? [value] : [];
  if (Array.isArray(value)) return value.filter((x): x is number => typeof x === 'number');
  return [];
}

/**
 * child_of_domain / parent_of_domain: `ids` and the records below them (child_of) or above
 * them (parent_of) in `tree`, along `parent`, archived ones too. A model with _parent_store
 * reads each record's parent_path instead (along parent_id whatever `parent` is), so its ids
 * must exist (MissingError); a model without the parent field is the KeyError Odoo raises
 * when it reads it (19 searches on it for child_of: its "Invalid field").
 */
function hierarchy(
  db: Db,
  env: Env,
  tree: ModelDef,
  op: 'child_of' | 'parent_of',
  given: number[],
  parent: string,
): Set<number> {
  const ids = op === 'parent_of' ? given.filter((id) => id) : given;
  const found = new Set<number>();
  if (ids.length === 0) return found;
  const rows = db.table(tree.name).rows;
  const missing = (list: number[]): void => {
    const id = list.find((i) => !rows[i]);
    if (id !== undefined) throw missingError(tree.name, [id], env.uid);
  };
  const name = tree.parentStore ? 'parent_id' : parent;
  if (tree.parentStore) missing(ids);
  const field = tree.fields.get(name);
  if (!field) {
    if (db.version === 19 && op === 'child_of')
      throw valueError(
        `Invalid field ${tree.name}.${name} in condition ('${name}', 'in', OrderedSet([${[...new Set(ids)].join(', ')}]))`,
      );
    throw new OdooError('builtins.KeyError', name);
  }
  if (op === 'child_of' && field.relation !== tree.name)
    throw valueError(`Invalid parent field: ${tree.name}.${name}`);
  const get = db.rowGetter(field);
  const linked = (r: Rec): number[] => {
    const v = get(r);
    return typeof v === 'number' ? [v] : Array.isArray(v) ? v : [];
  };
  // Up along the parent links (each one must exist), or down along the children.
  let step: (id: number) => number[];
  if (op === 'parent_of') step = (id) => linked(rows[id] as Rec);
  else {
    const children = new Map<number, number[]>();
    for (const r of rows) {
      if (!r) continue;
      for (const p of linked(r)) {
        const list = children.get(p);
        if (list) list.push(r.id);
        else children.set(p, [r.id]);
      }
    }
    step = (id) => children.get(id) ?? [];
  }
  let frontier = [...new Set(ids)];
  while (frontier.length > 0) {
    if (op === 'parent_of') missing(frontier);
    for (const id of frontier) found.add(id);
    const next = new Set<number>();
    for (const id of frontier) for (const n of step(id)) if (!found.has(n)) next.add(n);
    frontier = [...next];
  }
  return found;
}

function positiveOf(op: string): string {
  switch (op) {
    case '!=':
      return '=';
    case 'not in':
      return 'in';
    case 'not like':
      return 'like';
    case 'not ilike':
      return 'ilike';
    case 'not =like':
      return '=like';
    case 'not =ilike':
      return '=ilike';
    default:
      return op;
  }
}

function idsHit(field: FieldDef, get: (id: number) => Stored, ids: Set<number>): Predicate {
  if (field.type === 'many2one') {
    return (id) => {
      const v = get(id);
      return typeof v === 'number' && ids.has(v);
    };
  }
  return (rid) => {
    const v = get(rid);
    if (!Array.isArray(v)) return false;
    for (const id of v) if (ids.has(id)) return true;
    return false;
  };
}

/** A record matches when its related record(s) satisfy `sub` (any of them for x2many). */
function relatedMatch(
  db: Db,
  field: FieldDef,
  comodel: ModelDef,
  sub: Predicate,
  get: (id: number) => Stored,
  memoKey: string,
): Predicate {
  const rows = db.table(comodel.name).rows;
  if (field.type === 'one2many' && field.inverse) {
    // Like Odoo's subquery: the parents of the matching children, found through the inverse field.
    const inverse = field.inverse;
    const parents = db.memo(memoKey, () => {
      const found = new Set<number>();
      for (let id = 1; id < rows.length; id++) {
        const c = rows[id];
        if (c === undefined) continue;
        const p = c[inverse];
        if (typeof p === 'number' && !found.has(p) && sub(id)) found.add(p);
      }
      return found;
    });
    return (id) => parents.has(id);
  }
  // Each related record tested once: 0 not yet, 1 no, 2 yes (ids are dense).
  const cache = new Uint8Array(rows.length);
  const ok = (id: number): boolean => {
    let v = cache[id];
    if (v === undefined) return false;
    if (v === 0) {
      v = rows[id] !== undefined && sub(id) ? 2 : 1;
      cache[id] = v;
    }
    return v === 2;
  };
  if (field.type === 'many2one') {
    return (rid) => {
      const v = get(rid);
      return typeof v === 'number' && ok(v);
    };
  }
  return (rid) => {
    const v = get(rid);
    if (!Array.isArray(v)) return false;
    for (const id of v) if (ok(id)) return true;
    return false;
  };
}

function likeRegex(pattern: string, anchored: boolean, insensitive: boolean): RegExp {
  let src = '';
  for (const ch of pattern) {
    if (ch === '%') src += '.*';
    else if (ch === '_') src += '.';
    else src += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(anchored ? `^${src}$` : src, insensitive ? 'is' : 's');
}

function stringTest(op: string, values: string[]): (s: string) => boolean {
  const v = values[0] ?? '';
  switch (op) {
    case '=':
      return (s) => values.includes(s);
    case 'like':
    case 'ilike': {
      const re = likeRegex(v, false, op === 'ilike');
      return (s) => re.test(s);
    }
    case '=like':
    case '=ilike': {
      const re = likeRegex(v, true, op === '=ilike');
      return (s) => re.test(s);
    }
    default:
      return (s) => values.includes(s);
  }
}

const isEmpty = (v: Stored): boolean => v === false || v === undefined || v === '';

/** PostgreSQL's cast of a quoted literal to an integer column (`id = '3'`), or its error. */
function pgInteger(value: unknown): unknown {
  const text = value === true ? 'True' : String(value);
  if (typeof value === 'number' ? Number.isInteger(value) : /^\s*[+-]?\d+\s*$/.test(text))
    return Number(text);
  // Odoo passes psycopg2's message on; its second line quotes the SQL, which is not the sandbox's.
  throw new OdooError(
    'psycopg2.errors.InvalidTextRepresentation',
    `invalid input syntax for type integer: "${text}"`,
  );
}

const TIMESTAMP =
  /^\s*(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(?:Z|[+-]\d{1,2}(?::?\d{2})?)?\s*$/i;

/**
 * PostgreSQL's cast of text to a `timestamp without time zone` (Odoo's datetime columns), as
 * the sandbox stores them: `YYYY-MM-DD HH:MM:SS` and the microseconds if any. A zone offset is
 * read and dropped, not applied (`'2026-11-14 00:00:00+01:00'` is midnight); `T` may separate
 * the time. Text it does not read is left as it is.
 */
function pgTimestamp(value: string): string {
  const m = TIMESTAMP.exec(value);
  if (!m) return value;
  const [, day, h, min, sec = '00', frac] = m as unknown as [
    string,
    string,
    string,
    string,
    string?,
    string?,
  ];
  const micro = frac ? Math.round(Number(`0.${frac}`) * 1e6) : 0;
  const base = `${day} ${h.padStart(2, '0')}:${min}:${sec}`;
  if (micro === 0) return base;
  if (micro >= 1e6) return fmtDatetime(parseDatetime(base) + 1);
  return `${base}.${String(micro).padStart(6, '0')}`;
}

/**
 * A value as `field.convert_to_column` hands it to PostgreSQL in a comparison: Python's
 * int() for an integer field (`'3'` is 3, `'abc'` its ValueError), float() for a float; `id`
 * has no conversion, PostgreSQL casts its text (`id = '3'` is `id = 3`), and a datetime's
 * text too (16-18; 19 reads it with datetime.fromisoformat). Other types as given.
 */
function columnValue(field: FieldDef, value: unknown, version: number): unknown {
  if (field.name === 'id') return pgInteger(value);
  if (field.type === 'datetime' && typeof value === 'string' && version < 19) return pgTimestamp(value);
  if (field.type === 'integer') {
    if (!pyTruthy(value)) return 0;
    if (typeof value === 'number') return Math.trunc(value);
    if (value === true) return 1;
    if (typeof value === 'string') {
      if (/^\s*[+-]?\d+(?:_\d+)*\s*$/.test(value)) return Number(value.replace(/[\s_]/g, ''));
      throw valueError(`invalid literal for int() with base 10: ${pyRepr(value)}`);
    }
  }
  if (field.type === 'float' || field.type === 'monetary') {
    if (!pyTruthy(value)) return 0;
    if (value === true) return 1;
    if (typeof value === 'string') {
      const t = value.trim().replace(/(\d)_(?=\d)/g, '$1');
      if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return Number(t);
      if (/^[+-]?(?:inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
      throw valueError(`could not convert string to float: ${pyRepr(value)}`);
    }
  }
  return value;
}

function scalarPredicate(
  db: Db,
  field: FieldDef,
  get: (id: number) => Stored,
  op: string,
  value: unknown,
  env: Env,
): Predicate {
  const type = field.type;
  const nullable = type !== 'boolean' && type !== 'integer' && type !== 'float' && type !== 'monetary';
  if (op === 'in' || op === 'not in') return inPredicate(db.version, field, get, op, value);
  if (LIKE_OPERATORS.has(op)) return likePredicate(nullable, get, op, value);
  if (type === 'boolean') {
    const p = booleanPredicate(db.version, get, op, value);
    if (p) return p;
  }
  if (value === false || value === null) {
    if (op === '=') return (id) => nullable && isEmpty(get(id));
    if (op === '!=') return (id) => !nullable || !isEmpty(get(id));
    return () => false;
  }
  const { bound, cmp } =
    type === 'datetime' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? dayBound(db.version, op, value, env)
      : { bound: columnValue(field, value, db.version), cmp: op };
  return comparison(get, cmp, bound as string | number);
}

/** `in` / `not in` a list of values, each converted as the column takes it. */
function inPredicate(
  version: number,
  field: FieldDef,
  get: (id: number) => Stored,
  op: 'in' | 'not in',
  value: unknown,
): Predicate {
  const type = field.type;
  // 16-18 take only a list here (__leaf_to_sql); 19 reads a single value as a list of one.
  if (!Array.isArray(value) && version < 19) {
    // A datetime's 10-character value has had its time of day added by then.
    const shown =
      type === 'datetime' && typeof value === 'string' && value.length === 10 ? `${value} 00:00:00` : value;
    throw valueError(`Invalid domain term ${leafRepr([field.name, op, shown])}`);
  }
  const list = Array.isArray(value) ? value : [value];
  if (type === 'boolean' && version < 19) {
    // Python's `True in right`: 1 is True, 0 is False; None is neither.
    const t = list.some((x) => x === true || x === 1);
    const f = list.some((x) => x === false || x === 0);
    return op === 'in' ? (id) => (get(id) === true ? t : f) : (id) => (get(id) === true ? !t : !f);
  }
  const withNull = list.some((x) => x === false || x === null);
  // Each converted as the column takes it, except for `id`, whose values go to PostgreSQL as given.
  const set = new Set(
    list
      .filter((x) => x !== false && x !== null)
      .map((x) =>
        field.name === 'id' ? (typeof x === 'string' ? pgInteger(x) : x) : columnValue(field, x, version),
      ),
  );
  const hit = (id: number): boolean => {
    const v = get(id);
    if (type === 'boolean') return set.has(v === true) || (withNull && v !== true);
    if (isEmpty(v)) return withNull;
    return set.has(v);
  };
  return op === 'in' ? hit : (id) => !hit(id);
}

const LIKE_OPERATORS = new Set([
  'like',
  'ilike',
  'not like',
  'not ilike',
  '=like',
  '=ilike',
  'not =like',
  'not =ilike',
]);

/** The `like` family: SQL patterns, `=` ones anchored, `i` ones caseless. */
function likePredicate(
  nullable: boolean,
  get: (id: number) => Stored,
  op: string,
  value: unknown,
): Predicate {
  const positive = positiveOf(op);
  // The pattern is pycompat.to_text(value): False and None are ''.
  const text =
    value === false || value === null || value === undefined ? '' : value === true ? 'True' : String(value);
  const re = likeRegex(text, positive.startsWith('='), positive.endsWith('ilike'));
  // `like`/`ilike` an empty value ('%%') also take the empty (NULL) rows: expression.py adds
  // `OR col IS NULL` when `need_wildcard and not right` (the negative ones always take them).
  const withNull = !NEGATIVE.has(op) && !positive.startsWith('=') && !pyTruthy(value);
  const hit = (id: number): boolean => {
    const v = get(id);
    if (isEmpty(v) && nullable) return withNull;
    return re.test(String(v));
  };
  return NEGATIVE.has(op) ? (id) => !hit(id) : hit;
}

/** A boolean compared with a value; undefined where the general comparison decides. */
function booleanPredicate(
  version: number,
  get: (id: number) => Stored,
  op: string,
  value: unknown,
): Predicate | undefined {
  if (version === 19) {
    const want = value === true || value === 1;
    if (op === '=') return (id) => (get(id) === true) === want;
    if (op === '!=') return (id) => (get(id) === true) !== want;
    return undefined;
  }
  // bool(value) (convert_to_column): `= 'x'` is `= True`. None is `IS NULL`, below.
  if (value === null || value === undefined) return undefined;
  const want = Number(pyTruthy(value));
  const cmp: Record<string, (n: number) => boolean> = {
    '=': (n) => n === want,
    '!=': (n) => n !== want,
    '<': (n) => n < want,
    '<=': (n) => n <= want,
    '>': (n) => n > want,
    '>=': (n) => n >= want,
  };
  const test = cmp[op];
  return test ? (id) => test(Number(get(id) === true)) : undefined;
}

/** A datetime compared with a day (`YYYY-MM-DD`): the bound each version reads it as. */
function dayBound(version: number, op: string, value: string, env: Env): { bound: string; cmp: string } {
  // 16-18 append a time of day and read it as UTC.
  if (version !== 19)
    return { bound: `${value} ${op === '>' || op === '<=' ? '23:59:59' : '00:00:00'}`, cmp: op };
  // 19 reads a date as midnight in the user's zone, then converts it to UTC.
  const tz = env.tz || 'UTC';
  let day = parseDatetime(`${value} 00:00:00`);
  let cmp = op;
  if (cmp === '>' || cmp === '<=') {
    day += 86400;
    cmp = cmp === '>' ? '>=' : '<';
  }
  return { bound: fmtDatetime(day - tzOffset(day, tz)), cmp };
}

/** `=`, `!=` and the orderings against one bound; an empty value is below and above nothing. */
function comparison(get: (id: number) => Stored, cmp: string, b: string | number): Predicate {
  const ordered =
    (test: (v: number | string) => boolean): Predicate =>
    (id) => {
      const v = get(id);
      return !isEmpty(v) && test(v as number | string);
    };
  switch (cmp) {
    case '=':
      return (id) => get(id) === b;
    case '!=':
      return (id) => get(id) !== b;
    case '<':
      return ordered((v) => v < b);
    case '<=':
      return ordered((v) => v <= b);
    case '>':
      return ordered((v) => v > b);
    case '>=':
      return ordered((v) => v >= b);
    default:
      return () => false;
  }
}
