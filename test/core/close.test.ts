// A run's end closes its connections without waiting for a request still in flight: an export
// asks the page after next before it knows the next is the last, and nobody reads that reply.
// Waiting for it was one round trip more at the end of every export (and of every server of a
// chain). The sandbox here answers every request ten minutes late: only a dropped request lets
// close() return.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConnectionError } from '../../src/core/errors.js';
import { Http } from '../../src/core/http.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 10, faults: 'rate=1:slow600000' });
});
afterAll(async () => {
  await sandbox.close();
});

it('close() drops a request in flight, which fails at once and is not tried again', async () => {
  const http = new Http(new URL(sandbox.url), { timeoutMs: 900_000, rate: 0, retries: 4 });
  // Not common.version: the sandbox's faults leave protocol probes alone.
  const body = JSON.stringify({
    jsonrpc: '2.0',
    method: 'call',
    params: {
      service: 'object',
      method: 'execute_kw',
      args: ['demo', 2, 'admin', 'pos.order', 'search_count', [[]]],
    },
    id: 1,
  });
  const before = sandbox.requestCount();
  const reply = http.post('jsonrpc', body, {}, true);
  const failed = reply.then(
    () => undefined,
    (e: unknown) => e,
  );
  // The request is at the server (it counts it on arrival) before the run ends.
  while (sandbox.requestCount() === before) await new Promise((r) => setImmediate(r));
  await http.close();
  const err = await failed;
  expect(err).toBeInstanceOf(ConnectionError);
  expect((err as ConnectionError).message).toMatch(/not waited for/);
  // One attempt: a dropped request is no fault to retry.
  expect(sandbox.requestCount() - before).toBe(1);
});
