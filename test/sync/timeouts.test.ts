// posdata sync and a PostgreSQL that does not answer (issue 22): a lock held by another session,
// a server that stops answering halfway (a stuck backend, a lost network path) and one that
// accepts TCP and never says a word. Each used to hold the sync, and the schema's advisory lock
// with it, forever; now each ends within --timeout with exit 6 and one line.
import { createServer, type Server, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg1: TestPostgres;
let sandbox: SandboxHandle;
let env: Record<string, string>;

const sync = (to: string, args: string[]) =>
  runCli(['sync', '--to', to, '--rate', '0', '--timeout', '2', ...args], { env });

const oneLine = (stderr: string) => expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);

interface Proxy {
  port: number;
  /** Stop passing bytes either way once the client sends this text (the sockets stay open). */
  freezeOn?: string;
  close(): Promise<void>;
}

/** A TCP proxy in front of PostgreSQL that can go silent, as a stuck server or a cut path does. */
async function startProxy(target: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const p: Proxy = { port: 0, close: async () => undefined };
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    let frozen = false;
    upstream.connect(target, '127.0.0.1');
    client.on('data', (d: Buffer) => {
      if (p.freezeOn && d.includes(p.freezeOn)) frozen = true;
      if (!frozen) upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (!frozen) client.write(d);
    });
    for (const s of [client, upstream]) s.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  p.port = (server.address() as { port: number }).port;
  p.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return p;
}

beforeAll(async () => {
  [pg1, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 5, orders: 300 })]);
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg1.password };
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg1?.stop();
});

describe('a PostgreSQL that does not answer', () => {
  it('a lock held by another session: exit 6 after --timeout, one line; the schema is free again', async () => {
    const to = pg1.url({ password: '' });
    expect((await sync(to, ['sales', '--schema', 'lk', '--quiet'])).code).toBe(0);
    const other = new pg.Client({ connectionString: pg1.url() });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('LOCK TABLE lk.sales IN ACCESS EXCLUSIVE MODE');
      const r = await sync(to, ['sales', '--schema', 'lk', '--full']);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(6);
      oneLine(r.stderr);
      expect(r.stderr).toMatch(
        /^posdata: PostgreSQL at 127\.0\.0\.1:\d+ gave up a statement after --timeout: canceling statement due to (lock|statement) timeout; a lock held by another session \(see pg_locks\)/,
      );
      // Its advisory lock went with it: the next run is not queued behind it.
      const busy = await sync(to, ['configs', '--schema', 'lk', '--no-wait', '--quiet']);
      expect(busy.code, busy.stderr).toBe(0);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    const again = await sync(to, ['sales', '--schema', 'lk', '--quiet']);
    expect(again.code, again.stderr).toBe(0);
  });

  it('a server that stops answering halfway: exit 6 after --timeout, one line; the rerun completes', async () => {
    const proxy = await startProxy(pg1.port);
    try {
      proxy.freezeOn = 'COPY';
      const to = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
      const r = await sync(to, ['sales', '--schema', 'cut']);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(6);
      oneLine(r.stderr);
      expect(r.stderr).toMatch(
        /^posdata: PostgreSQL at 127\.0\.0\.1:\d+ did not answer within 2 s \(--timeout\) to COPY; check that it is up and reachable from here, then run posdata sync again/,
      );
      proxy.freezeOn = undefined;
      const again = await sync(to, ['sales', '--schema', 'cut', '--quiet']);
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('a server that accepts TCP and never answers: exit 6 after --timeout, one line', async () => {
    const silent = createServer(() => undefined);
    const held: Socket[] = [];
    silent.on('connection', (s) => held.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const r = await sync(`postgres://postgres@127.0.0.1:${port}/postgres`, ['sales']);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(6);
      oneLine(r.stderr);
      expect(r.stderr).toMatch(
        new RegExp(`^posdata: PostgreSQL at 127\\.0\\.0\\.1:${port} did not answer in time; `),
      );
    } finally {
      for (const s of held) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
