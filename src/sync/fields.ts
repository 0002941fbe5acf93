// Which fields `posdata sync` loads: the defaults the server stores, and those asked for with
// --fields (RESOURCE:field,field), each checked against the server's own fields.
import { isStored, SYNC_NAMES, type SyncName, type SyncResource } from '../catalog/resources.js';
import { UsageError } from '../core/errors.js';
import { nameList, own, say } from '../core/redact.js';
import type { FieldMap } from '../core/types.js';

/** `--fields sales:a,b` (or `a,b` when one resource is named): the fields asked for per resource. */
export function parseFieldSpecs(specs: string[], chosen: SyncName[]): Map<SyncName, string[]> {
  const out = new Map<SyncName, string[]>();
  for (const spec of specs) {
    const m = /^([a-z_]+):(.*)$/.exec(spec);
    let name: SyncName;
    let list: string;
    if (m) {
      if (!SYNC_NAMES.includes(m[1] as SyncName))
        throw new UsageError(
          say`--fields names unknown resource '${m[1]}'`,
          say`use one of ${own(SYNC_NAMES.join(', '))}`,
        );
      name = m[1] as SyncName;
      list = m[2] as string;
    } else if (chosen.length === 1) {
      name = chosen[0] as SyncName;
      list = spec;
    } else {
      throw new UsageError(
        say`--fields '${spec}' does not say which resource`,
        say`write it as RESOURCE:field,field, e.g. --fields sales:partner_id,user_id`,
      );
    }
    const fields = list
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0)
      throw new UsageError(say`--fields '${spec}' names no field`, say`e.g. --fields sales:partner_id`);
    out.set(name, [...(out.get(name) ?? []), ...fields]);
  }
  return out;
}

/** The fields asked for exist and are stored (a sync could not keep a computed one current). */
export function checkAsked(r: SyncResource, fields: FieldMap, asked: string[]): void {
  for (const f of asked) {
    if (!(f in fields)) {
      throw new UsageError(
        say`unknown field '${f}' on ${own(r.model)}`,
        say`valid fields: ${nameList(
          Object.keys(fields)
            .filter((k) => isStored(fields, k))
            .sort(),
        )}`,
      );
    }
    if (!isStored(fields, f)) {
      throw new UsageError(
        say`field '${f}' of ${own(r.model)} is computed and not stored by Odoo`,
        say`its changes do not move write_date, so a sync could not keep it current; pick a stored field`,
      );
    }
  }
}
