// `tap-posdata`, the executable a Singer orchestrator runs (Meltano's `executable`), is
// `posdata tap`: the built launcher as a process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const TAP_BIN = fileURLToPath(new URL('../../bin/tap-posdata.js', import.meta.url));

const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [TAP_BIN, ...args], (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

it('tap-posdata --about --format json is posdata tap --about', async () => {
  const r = await run(['--about', '--format', 'json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({
    name: 'tap-posdata',
    capabilities: ['catalog', 'discover', 'state', 'about'],
  });
});

it('tap-posdata without --config: exit 2, one line, nothing on stdout', async () => {
  const r = await run([]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^posdata: --config FILE is missing[^\n]*\n$/);
});
