// Records each request of `requests` (name -> [model, method, args, kwargs]) as the real Odoo
// at `url` answers it for database `db` (admin, uid 2), one `<name>.json` per request in `dir`:
// what the wire*-record.mjs scripts share.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function recordRequests(url, db, dir, requests) {
  let id = 1;
  for (const [name, [model, method, args, kwargs]] of Object.entries(requests)) {
    const request = {
      jsonrpc: '2.0',
      method: 'call',
      params: {
        service: 'object',
        method: 'execute_kw',
        args: [db, 2, 'admin', model, method, args, kwargs],
      },
      id: id++,
    };
    const res = await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
    const response = await res.json();
    if (response.error) throw new Error(`${name}: ${response.error.data.message}`);
    const http = { status: res.status, content_type: res.headers.get('content-type') };
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ request, response, http }, null, 2)}\n`);
  }
}
