// Records by their own name, where Odoo's label says more: on 16/17 a register's label carries
// the session's user ("Shop (Cashier)") while a session is open and not after, so a label
// stored or shown per row would split one register in two; a register's payment methods are
// ids until named. Read once per run and model (archived records too), shared by every
// caller of the same client.
import type { OdooClient } from '../core/client.js';

const read = new WeakMap<OdooClient, Map<string, Promise<Map<number, string>>>>();

export function ownNames(client: OdooClient, model: string): Promise<Map<number, string>> {
  let byModel = read.get(client);
  if (!byModel) {
    byModel = new Map();
    read.set(client, byModel);
  }
  let names = byModel.get(model);
  if (!names) {
    names = client
      .searchRead(model, [], { fields: ['name'], context: { active_test: false } })
      .then((rs) => new Map(rs.map((r) => [r.id, String(r.name)])));
    byModel.set(model, names);
  }
  return names;
}
