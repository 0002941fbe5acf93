// Flags → a query (domain, fields, order, limit), checked against the fields the server
// actually has (fields_get), never against a version number.

import { type Resource, VIRTUAL_FIELDS } from '../catalog/resources.js';
import { UsageError } from '../core/errors.js';
import { nameList, own, type Said, say } from '../core/redact.js';
import { closest } from '../core/suggest.js';
import type { Domain, FieldDef, FieldMap } from '../core/types.js';
import { checkDomain, checkSortShape, listFields } from './domain.js';
import { rangeDomain } from './time.js';

export interface QueryFlags {
  configId?: number;
  sessionId?: number;
  state?: string[];
  from?: string;
  to?: string;
  tz: string;
  fields?: string[];
  limit?: number;
  offset?: number;
  sort?: string;
  domain?: Domain;
}

export interface BuiltQuery {
  model: string;
  domain: Domain;
  /** Output fields, in the order asked for. */
  fields: string[];
  /** Fields requested from the server (virtual ones replaced by what fills them). */
  fetchFields: string[];
  order: string;
  limit?: number;
  /** Field definitions for the output fields (virtual ones included). */
  defs: FieldMap;
}

export function checkFields(resource: Resource, fields: FieldMap, wanted: string[]): void {
  const virtual = Object.keys(VIRTUAL_FIELDS[resource.name] ?? {});
  const unknown = wanted.filter((f) => !(f in fields) && !virtual.includes(f));
  if (unknown.length > 0) {
    // config_name, a column of posdata's CSV, is the name of the relation config_id.
    const named = unknown
      .map((u) => /^(.+)_name$/.exec(u)?.[1])
      .find((base) => base !== undefined && fields[`${base}_id`]?.type === 'many2one');
    throw new UsageError(
      say`unknown field${unknown.length > 1 ? own('s') : ''} ${unknown.map((u) => `'${u}'`).join(', ')} on ${own(resource.model)}`,
      named !== undefined
        ? say`${own(`${named}_name`)} is the CSV column of ${own(`${named}_id`)}'s name: --fields ${own(`${named}_id`)} gives both columns; valid fields: ${listFields(fields, virtual)}`
        : say`valid fields: ${listFields(fields, virtual)}`,
    );
  }
}

export function checkSort(sort: string, fields: FieldMap, model: string): string {
  const out: string[] = [];
  for (const { field, direction } of checkSortShape(sort)) {
    const f = fields[field];
    if (!f && field !== 'id') {
      throw new UsageError(
        say`cannot sort on unknown field '${field}' of ${own(model)}`,
        sortHint(field, fields),
      );
    }
    if (f && f.store === false) {
      throw new UsageError(
        say`cannot sort on '${field}': Odoo does not store it`,
        say`sort on a stored field`,
      );
    }
    out.push(direction ? `${field} ${direction}` : field);
  }
  return out.join(', ');
}

/**
 * The field a sort on an unknown one probably meant: a slip away, else the few whose names
 * hold it (`amount` for amount_total), rather than sixty names to read through.
 */
function sortHint(field: string, fields: FieldMap): Said {
  const names = Object.keys(fields).sort();
  const near = closest(field, names);
  if (near !== undefined) return say`did you mean ${near}?`;
  const typed = field.toLowerCase();
  const starting = names.filter((n) => n.startsWith(typed));
  const holding =
    typed.length < 3 ? [] : starting.length > 0 ? starting : names.filter((n) => n.includes(typed));
  if (holding.length > 0 && holding.length <= 6)
    return say`did you mean ${own(holding.length === 1 ? '' : 'one of ')}${nameList(holding)}?`;
  return say`valid fields: ${listFields(fields)}`;
}

/** The whole query for one resource. `fixed` is the resource's own extra filter (lines' order). */
export function buildQuery(
  resource: Resource,
  fields: FieldMap,
  flags: QueryFlags,
  fixed: Domain = [],
): BuiltQuery {
  const out = flags.fields && flags.fields.length > 0 ? flags.fields : defaultFieldsFor(resource, fields);
  checkFields(resource, fields, out);
  const virtual = VIRTUAL_FIELDS[resource.name] ?? {};
  const defs: FieldMap = {};
  const fetch = new Set<string>();
  for (const f of out) {
    if (f in fields) {
      defs[f] = fields[f];
      fetch.add(f);
    } else if (f in virtual) {
      defs[f] = virtual[f] as FieldDef;
      // refunded_order_id on 16/17 is filled from refunded_order_ids (lines' link).
      if (f === 'refunded_order_id' && 'refunded_order_ids' in fields) fetch.add('refunded_order_ids');
      // invoice is filled from account_move's own name.
      if (f === 'invoice' && 'account_move' in fields) fetch.add('account_move');
    }
  }
  const domain: Domain = [...resource.fixedDomain(fields), ...fixed];
  const ff = { ...resource.filterFields, ...resource.rangeFields };
  if (flags.configId !== undefined) {
    if (!ff.config)
      throw new UsageError(say`--config-id does not apply to ${own(resource.name)}`, say`remove it`);
    domain.push([ff.config, '=', flags.configId]);
  }
  if (flags.sessionId !== undefined) {
    if (!ff.session)
      throw new UsageError(say`--session-id does not apply to ${own(resource.name)}`, say`remove it`);
    domain.push([ff.session, '=', flags.sessionId]);
  }
  if (flags.state && flags.state.length > 0) {
    if (!ff.state) throw new UsageError(say`--state does not apply to ${own(resource.name)}`, say`remove it`);
    const sel = fields[ff.state]?.selection?.map((s) => s[0]);
    const bad = sel ? flags.state.filter((s) => !sel.includes(s)) : [];
    if (bad.length > 0) {
      const guess = closest(String(bad[0]), sel ?? []);
      throw new UsageError(
        say`unknown state '${bad[0]}'`,
        guess
          ? say`did you mean ${guess}? this server's states: ${nameList(sel ?? [])}`
          : say`this server's states: ${nameList(sel ?? [])}`,
      );
    }
    domain.push([ff.state, 'in', flags.state]);
  }
  if (flags.from !== undefined || flags.to !== undefined) {
    if (!ff.time)
      throw new UsageError(say`--from/--to do not apply to ${own(resource.name)}`, say`remove them`);
    domain.push(...rangeDomain(ff.time, flags.from, flags.to, flags.tz));
  }
  if (flags.domain) {
    checkDomain(flags.domain, fields, resource.model);
    domain.push(...flags.domain);
  }
  const order = flags.sort ? withIdTieBreak(checkSort(flags.sort, fields, resource.model)) : 'id';
  return {
    model: resource.model,
    domain,
    fields: out,
    fetchFields: [...fetch],
    order,
    limit: flags.limit,
    defs,
  };
}

/** A sort that ends on id gives the same order on every call (pages do not overlap). */
function withIdTieBreak(order: string): string {
  return /(^|,\s*)id(\s+(asc|desc))?$/i.test(order) ? order : `${order}, id`;
}

export function defaultFieldsFor(resource: Resource, fields: FieldMap): string[] {
  // Odoo 16 has no stored config_id on orders, 19 no invoiced state: fields the server
  // lacks (and posdata cannot fill) are left out rather than failing the default view.
  const virtual = VIRTUAL_FIELDS[resource.name] ?? {};
  return resource.defaultFields.filter((f) => f in fields || f in virtual);
}
