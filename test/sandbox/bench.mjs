// Measures the sandbox at volume: node test/sandbox/bench.mjs [orders=1000000]
// (needs `npm run build`). Prints generation time, memory and page times.
const { startSandbox } = await import('../../dist/sandbox/index.js');
const n = Number(process.argv[2] ?? 1_000_000);
const cpu0 = process.cpuUsage();
const t = performance.now();
const h = await startSandbox({ port: 0, orders: n, seed: 1 });
const cpu = process.cpuUsage(cpu0);
console.log(
  `${n} orders: started in ${(performance.now() - t).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU; ${JSON.stringify(h.stats)}; heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
);
const kw = async (model, method, args, kwargs = {}) => {
  const r = await fetch(`${h.url}/jsonrpc`, {
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
  return (await r.json()).result;
};
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
const time = async (label, f) => {
  const t0 = performance.now();
  const r = await f();
  console.log(`${label}: ${(performance.now() - t0).toFixed(1)} ms`);
  return r;
};
await time('search_count []', () => kw('pos.order', 'search_count', [[]]));
for (const start of [0, n / 2, n - 5000]) {
  await time(`5,000 orders from id > ${start}`, () =>
    kw('pos.order', 'search_read', [[['id', '>', start]]], { fields, order: 'id', limit: 5000 }),
  );
}
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
await time('default order, first page (sorts)', () =>
  kw('pos.order', 'search_read', [[]], { fields, limit: 5000 }),
);
await time('default order, second page', () =>
  kw('pos.order', 'search_read', [[]], { fields, limit: 5000, offset: 5000 }),
);
await time('refunds by lines.refunded_orderline_id', () =>
  kw('pos.order', 'search_count', [[['lines.refunded_orderline_id', '!=', false]]]),
);
await time('closed sessions with computed cash', () =>
  kw('pos.session', 'search_read', [[['state', '=', 'closed']]], {
    fields: ['cash_register_balance_end', 'total_payments_amount'],
  }),
);
await h.close();
