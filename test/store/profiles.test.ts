// The store is made by the first write (login), not by a command that only looks: conf
// writes its defaults when it is constructed, which left an empty store behind a
// `posdata profiles` or `logout` run before any login.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../src/store/profiles.js';
import { freshConfigDir, runCli } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 2, orders: 10 });
});
afterAll(async () => sandbox?.close());

describe('the store before any login', () => {
  it('profiles and logout leave no file and no folder; login then makes both, private', async () => {
    const dir = join(freshConfigDir(), 'posdata');
    const env = { POSDATA_CONFIG_DIR: dir };
    const list = await runCli(['profiles'], { env });
    expect(list.code).toBe(0);
    for (const args of [['logout'], ['logout', '--remove']]) {
      const out = await runCli(args, { env });
      expect(out.stderr).toBe('posdata: no profile named default; list them with posdata profiles\n');
    }
    expect(existsSync(dir)).toBe(false);

    const login = await runCli(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
      { env, input: 'admin' },
    );
    expect(login.code).toBe(0);
    const file = join(dir, 'config.json');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.login).toBe('admin');
  });
});

describe('logout --remove takes what runs remembered of its server with it', () => {
  const remembered = (dir: string) => ({
    fields: readdirSync(dir)
      .filter((f) => f.startsWith('fields.'))
      .map((f) => JSON.parse(JSON.parse(readFileSync(join(dir, f), 'utf8')).key)[1] as string)
      .sort(),
    servers: Object.keys(JSON.parse(readFileSync(join(dir, 'completion.json'), 'utf8'))),
  });

  it('keeps them while another profile points there, and a plain logout keeps them for the next login', async () => {
    const dir = join(freshConfigDir(), 'posdata');
    const env = { POSDATA_CONFIG_DIR: dir };
    const login = async (profile: string, url: string, user: string) => {
      const out = await runCli(
        ['login', '--profile', profile, '--url', url, '--db', 'demo', '--user', user, '--password-stdin'],
        { env, input: user },
      );
      expect(out).toMatchObject({ code: 0 });
      const run = await runCli(['sales', '--profile', profile, '--limit', '1', '--format', 'csv'], { env });
      expect(run).toMatchObject({ code: 0 });
    };
    // Two profiles of one login, one of another login, on one server; one on another address
    // of the same sandbox (another server to posdata).
    const other = sandbox.url.replace('127.0.0.1', 'localhost');
    await login('a', sandbox.url, 'admin');
    await login('b', sandbox.url, 'admin');
    await login('cashier', sandbox.url, 'pos');
    await login('far', other, 'admin');
    const server = `${sandbox.url.replace(/\/+$/, '')}|demo`;
    const farServer = `${other.replace(/\/+$/, '')}|demo`;
    // One file per server, database and login: a and b share theirs.
    const all = { fields: ['admin', 'admin', 'pos'], servers: [server, farServer] };
    expect(remembered(dir)).toEqual(all);

    expect((await runCli(['logout', '--profile', 'a'], { env })).code).toBe(0);
    expect((await runCli(['logout', '--remove', '--profile', 'a'], { env })).code).toBe(0);
    expect(remembered(dir)).toEqual(all);
    expect((await runCli(['logout', '--remove', '--profile', 'b'], { env })).code).toBe(0);
    expect(remembered(dir)).toEqual({ fields: ['admin', 'pos'], servers: [server, farServer] });
    expect((await runCli(['logout', '--remove', '--profile', 'cashier'], { env })).code).toBe(0);
    expect(remembered(dir)).toEqual({ fields: ['admin'], servers: [farServer] });
  });
});

describe('targetOf, the one precedence of where a run goes', () => {
  const profile = { url: 'https://p.example', db: 'pdb', login: 'plogin' };
  const env = { POSDATA_URL: 'https://e.example', POSDATA_DB: 'edb', POSDATA_USER: 'elogin' };
  it('takes the flag over the environment over the profile, each of url, db and login', () => {
    expect(targetOf({ url: 'https://f.example', db: 'fdb', user: 'flogin' }, env, profile)).toEqual({
      url: 'https://f.example',
      db: 'fdb',
      login: 'flogin',
    });
    expect(targetOf({}, env, profile)).toEqual({ url: 'https://e.example', db: 'edb', login: 'elogin' });
    expect(targetOf({ db: 'fdb' }, {}, profile)).toEqual({
      url: 'https://p.example',
      db: 'fdb',
      login: 'plogin',
    });
    expect(targetOf({}, {}, {})).toEqual({ url: undefined, db: undefined, login: undefined });
  });
});
