// {from} and {to} in -o name the window of a checkpointed run: a single run without
// --checkpoint refuses them (exit 2), but a chain over several profiles without --checkpoint
// wrote its joined rows to a file literally named `sales-{to}.csv`. A chain refuses them as a
// single run does, in the same one line, before any server is read ({profile} in -o was
// refused so already).
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { chainOfShops } from '../helpers/servers.js';

let env: Record<string, string>;
let dir: string;
let shops: Awaited<ReturnType<typeof chainOfShops>>;

beforeAll(async () => {
  shops = await chainOfShops([73, 74]);
  ({ env, dir } = shops);
}, 60_000);

afterAll(async () => shops?.close());

const LINE =
  'posdata: {from} and {to} in -o name the window of a checkpointed run; add --checkpoint FILE, or leave them out of -o';

describe('{to} in -o without --checkpoint', () => {
  it.each([
    ['a single run', ['--profile', 'shop-a'], 'sales-{to}.csv'],
    ['a chain into one file', ['--profile', 'shop-a,shop-b'], 'sales-{to}.csv'],
    ['a chain into a file per server', ['--profile', 'shop-a,shop-b'], '{profile}-{from}.csv'],
    ['a chain of lines', ['--profile', 'shop-a,shop-b'], 'lines-{to}.csv'],
  ])('%s: exit 2, one line, no file', async (_what, profiles, name) => {
    const out = mkdtempSync(join(dir, 'window-'));
    const command = name.startsWith('lines') ? ['lines', '--from', '2000-01-01'] : ['sales'];
    const r = await runCli([...command, ...profiles, '--rate', '0', '-o', join(out, name)], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(LINE);
    expect(readdirSync(out)).toEqual([]);
  });
});
