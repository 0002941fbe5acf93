// A large GET /api/v1/sales streams. The service runs with a 64 MB JavaScript heap: one
// that built the array in memory would hold 150,000 records as objects (several times the
// JSON's 35 MB) and die of it; a streaming one sends them all. The resident-memory growth is
// reported, not asserted: it depends on the garbage collector's moods (Node 24's differ).
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv } from '../helpers/cli.js';
import { login, type Served, startServe } from './serve-process.js';

const linux = existsSync('/proc/self/status');

/** Peak resident memory of a process, in bytes (Linux). */
function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

describe.skipIf(!linux)('memory while streaming', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
  let sandbox: any;
  let served: Served;

  beforeAll(async () => {
    const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
    sandbox = await startSandbox({ port: 0, seed: 8, orders: 150_000 });
    served = await startServe(['--rate', '0'], {
      ...(await loginEnv(sandbox.url)),
      NODE_OPTIONS: '--max-old-space-size=64',
    });
  });

  afterAll(async () => {
    await served?.stop();
    await sandbox?.close();
  });

  it('150,000 orders go out of a service with a 64 MB heap', async () => {
    const t = await login(served.base, 'admin', 'admin');
    const pid = served.proc.pid as number;
    // Warm up (fields_get, JIT) so that the baseline is the steady state.
    await (
      await fetch(`${served.base}/api/v1/sales?limit=5000`, { headers: { authorization: `Bearer ${t}` } })
    ).text();
    const before = peakRss(pid);
    const res = await fetch(`${served.base}/api/v1/sales`, { headers: { authorization: `Bearer ${t}` } });
    expect(res.status).toBe(200);
    // Read as a stream and count records without keeping the body.
    let bytes = 0;
    let records = 0;
    const decoder = new TextDecoder();
    let last = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      // Each record starts a line; the previous chunk's last character catches a split "\n{".
      const text = last + decoder.decode(chunk, { stream: true });
      records += (text.match(/\n\{/g) ?? []).length;
      last = text.slice(-1);
    }
    const grown = peakRss(pid) - before;
    expect(records).toBe(150_000);
    expect(bytes).toBeGreaterThan(30_000_000);
    expect(served.proc.exitCode).toBeNull();
    process.stdout.write(
      `serve: ${bytes} bytes streamed, peak RSS grew ${Math.round(grown / 1048576)} MiB\n`,
    );
  });
});
