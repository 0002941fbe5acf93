// Measures the sandbox at volume: node test/sandbox/bench.mjs [orders=1000000]
// (needs `npm run build`). The sandbox runs in a child process, so the client's own work
// (parsing a 1 MB page) does not count against it. Prints generation time, memory, page times.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === '--serve') {
  const { startSandbox } = await import('posdata/sandbox');
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const h = await startSandbox({ port: 0, orders: Number(process.argv[3]), seed: 1 });
  const cpu = process.cpuUsage(cpu0);
  const mem = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ url: h.url, wallMs: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000, stats: h.stats, heapMB: mem.heapUsed / 1e6, rssMB: mem.rss / 1e6 })}\n`,
  );
  process.on('SIGTERM', () => h.close().then(() => process.exit(0)));
} else {
  const n = Number(process.argv[2] ?? 1_000_000);
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', String(n)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise((resolve) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) resolve(JSON.parse(buf));
    });
  });
  const { url, wallMs, cpuMs, stats, heapMB, rssMB } = info;
  console.log(
    `${n} orders (${stats.lines} lines, ${stats.payments} payments): started in ${wallMs.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU; heap ${heapMB.toFixed(0)} MB, RSS ${rssMB.toFixed(0)} MB`,
  );
  const kw = async (model, method, args, kwargs = {}) => {
    const r = await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: {
          service: 'object',
          method: 'execute_kw',
          args: ['demo', 2, 'admin', model, method, args, kwargs],
        },
        id: 1,
      }),
    });
    return r.arrayBuffer();
  };
  // The first call of a kind pays for lazy work (a sort, an index); shown apart from the median of five.
  const time = async (label, f) => {
    const runs = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      await f();
      runs.push(performance.now() - t0);
    }
    const first = runs.shift();
    runs.sort((a, b) => a - b);
    console.log(`${label}: first ${first.toFixed(1)} ms, then median ${runs[2].toFixed(1)} ms`);
  };
  await kw('res.users', 'context_get', []);
  const fields = [
    'id',
    'name',
    'date_order',
    'amount_total',
    'amount_paid',
    'amount_tax',
    'state',
    'config_id',
    'session_id',
    'payment_ids',
  ];
  await time('search_count []', () => kw('pos.order', 'search_count', [[]]));
  for (const start of [0, n / 2, n - 5000]) {
    await time(`5,000 orders with id > ${start}`, () =>
      kw('pos.order', 'search_read', [[['id', '>', start]]], { fields, order: 'id', limit: 5000 }),
    );
  }
  await time('5,000 orders at offset n/2 (order id)', () =>
    kw('pos.order', 'search_read', [[]], { fields, order: 'id', limit: 5000, offset: n / 2 }),
  );
  await time('5,000 lines by id', () =>
    kw('pos.order.line', 'search_read', [[['id', '>', 1000]]], {
      fields: [
        'order_id',
        'product_id',
        'qty',
        'price_unit',
        'discount',
        'price_subtotal',
        'price_subtotal_incl',
      ],
      order: 'id',
      limit: 5000,
    }),
  );
  await time('default order, 5,000 (first call sorts)', () =>
    kw('pos.order', 'search_read', [[]], { fields, limit: 5000 }),
  );
  await time('refunds by lines.refunded_orderline_id (count)', () =>
    kw('pos.order', 'search_count', [[['lines.refunded_orderline_id', '!=', false]]]),
  );
  await time('closed sessions with computed cash', () =>
    kw('pos.session', 'search_read', [[['state', '=', 'closed']]], {
      fields: ['cash_register_balance_end', 'total_payments_amount'],
    }),
  );
  child.kill('SIGTERM');
}
