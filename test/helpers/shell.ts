// Commands as a user types them: bash with `posdata` and `tap-posdata` on PATH (the built
// CLI), for the docs' blocks and recipes (test/docs.test.ts, test/docs-recipes.test.ts).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BIN, freshConfigDir } from './cli.js';

/** An environment with the CLI on PATH (in `home`/bin), HOME `home`, no colour, no POSDATA_ set. */
export function shellEnv(home: string): Record<string, string> {
  const bin = join(home, 'bin');
  mkdirSync(bin);
  for (const [name, script] of [
    ['posdata', BIN],
    ['tap-posdata', join(dirname(BIN), 'tap-posdata.js')],
  ] as const) {
    writeFileSync(join(bin, name), `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('POSDATA_')),
  ) as Record<string, string>;
  return {
    ...base,
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    NO_COLOR: '1',
    POSDATA_CONFIG_DIR: freshConfigDir(),
    POSDATA_TEST_TMP: process.env.POSDATA_TEST_TMP ?? '',
  };
}

/** A script run by bash, stopping at the first failing command (a pipe's too). */
export function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
