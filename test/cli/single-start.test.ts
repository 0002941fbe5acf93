// What a single run does before its first request, and no more: the chain's module
// (src/cli/servers.ts) and csv-parse under it are loaded only in a run over several servers;
// undici's HTTP/2 client, and node:http2 under it, never (posdata asks HTTP/1.1 only:
// scripts/undici-left-out.cjs); a run in UTC makes no DateTimeFormat before it (src/query/luxon.ts).
// Node's module hooks record the files the process loads (each bundle chunk's source map names
// the modules in it), a preload the builtins it loaded and the DateTimeFormats made before the
// first connect.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshConfigDir, loginProfile, SUITE_SECRET } from '../helpers/cli.js';
import { loadHooks, modulesOf } from '../helpers/loaded.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const { dir, register } = loadHooks('posdata-single-start-');
writeFileSync(
  join(dir, 'builtins.cjs'),
  `let dtf = 0;
let connected = false;
const count = () => { if (!connected) dtf++; };
Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
  construct: (t, a, n) => (count(), Reflect.construct(t, a, n)),
  apply: (t, self, a) => (count(), Reflect.apply(t, self, a)),
});
const net = require('node:net');
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...a) { connected = true; return connect.apply(this, a); };
process.on('exit', () => require('node:fs').appendFileSync(process.env.POSDATA_LOADED,
  process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'node:' + m.slice(13)).join('\\n') +
  '\\ndtf-before-connect:' + dtf + '\\n'));
`,
);

const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  for (const [i, name] of ['first', 'second'].entries()) {
    const s = await startTestSandbox({ seed: 3 + i, orders: 40, adminKey: SUITE_SECRET });
    sandboxes.push(s);
    await loginProfile(env, name, s.url);
  }
}, 60_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What `posdata ...args` loads: src/ modules, packages (from the files and their maps) and node: builtins. */
async function loaded(args: string[]): Promise<Set<string>> {
  const log = join(dir, 'loaded.log');
  rmSync(log, { force: true });
  // Not spawnSync: the sandbox answers from this process's loop.
  const child = spawn(
    process.execPath,
    ['--require', join(dir, 'builtins.cjs'), '--import', register, BIN, ...args],
    {
      env: { ...process.env, ...env, POSDATA_LOADED: log, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const code = await new Promise((done) => child.on('close', done));
  expect(code, stderr).toBe(0);
  const lines = readFileSync(log, 'utf8').split('\n');
  const modules = modulesOf(lines);
  for (const line of lines) if (line.startsWith('node:') || line.startsWith('dtf-')) modules.add(line);
  return modules;
}

const CHAIN = ['src/cli/servers.ts', 'src/cli/servers-join.ts', 'node_modules/csv-parse'];

describe('a single run loads no chain and no HTTP/2, and in UTC asks no ICU before its first request', () => {
  it.each([
    [['summary', '--date', 'yesterday', '--rate', '0']],
    [['sales', '--from', '2000-01-01', '--tz', 'UTC', '--rate', '0', '--format', 'csv']],
  ])('posdata %j', async (args) => {
    const m = await loaded([...args, '--profile', 'second']);
    expect(m.has('src/main.ts')).toBe(true);
    for (const c of CHAIN) expect(m.has(c), c).toBe(false);
    expect(m.has('node:net')).toBe(true);
    expect(m.has('node:http2')).toBe(false);
  });

  // luxon's locale set (src/query/luxon.ts) and UTC taken as valid without asking ICU: a run in
  // UTC makes no DateTimeFormat (ICU's first, ~20 ms of CPU) before its first request.
  it.each([
    [['summary', '--date', 'yesterday', '--tz', 'UTC', '--rate', '0', '--format', 'json']],
    [['sales', '--from', '2000-01-01', '--tz', 'UTC', '--rate', '0', '--format', 'csv']],
  ])('posdata %j makes no DateTimeFormat before its first request', async (args) => {
    const m = await loaded([...args, '--profile', 'second']);
    expect([...m].filter((x) => x.startsWith('dtf-'))).toEqual(['dtf-before-connect:0']);
  });

  it('a chain loads its module, and still no HTTP/2', async () => {
    const m = await loaded([
      'summary',
      '--date',
      'yesterday',
      '--rate',
      '0',
      '--all-profiles',
      '--format',
      'csv',
    ]);
    expect(m.has('src/cli/servers.ts')).toBe(true);
    expect(m.has('node:http2')).toBe(false);
  });
});
