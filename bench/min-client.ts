// The least a JavaScript client must do to export the sales, as ../shared/checks/min-client.js
// (perf-export's yardstick since issue 42) does it, line for line: fetch the pages of 5,000 two
// in flight, JSON.parse each, print one line per record with a template string, one write a
// page. It checks nothing, quotes nothing and writes no atomic file: the practical limit of a
// client on this host. Compiled with the bench into dist-bench/min-client.js.
// usage: node dist-bench/min-client.js URL UID OUT.csv [DB]   (password admin)
import { closeSync, openSync, writeSync } from 'node:fs';

interface Sale {
  id: number;
  name: string;
  date_order: string;
  amount_total: number;
  amount_paid: number;
  amount_tax: number;
  state: string;
  config_id: [number, string];
  session_id: [number, string];
  payment_ids: number[];
}

const [url, uid, out, db = 'demo'] = process.argv.slice(2);
const fields =
  'id,name,date_order,amount_total,amount_paid,amount_tax,state,config_id,session_id,payment_ids'.split(',');
const size = 5000;
const fd = openSync(out, 'w');
const page = (offset: number): Promise<Sale[]> =>
  fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      method: 'call',
      id: offset,
      params: {
        service: 'object',
        method: 'execute_kw',
        args: [
          db,
          Number(uid),
          'admin',
          'pos.order',
          'search_read',
          [[]],
          { fields, order: 'id', limit: size, offset },
        ],
      },
    }),
  })
    .then((r) => r.text())
    .then((t) => JSON.parse(t).result as Sale[]);

let offset = 0;
let next = page(offset);
for (;;) {
  const ahead = page(offset + size);
  const rows = await next;
  let s = '';
  for (const r of rows) {
    s += `${r.id},${r.name},${r.date_order},${r.amount_total.toFixed(2)},${r.amount_paid.toFixed(2)},${r.amount_tax.toFixed(2)},${r.state},${r.config_id[0]},${r.config_id[1]},${r.session_id[0]},${r.session_id[1]},${r.payment_ids.join(';')}\n`;
  }
  writeSync(fd, s);
  if (rows.length < size) {
    await ahead.catch(() => undefined);
    break;
  }
  offset += size;
  next = ahead;
}
closeSync(fd);
