// `npm test` on a fresh machine (issue 22, item 10): its pretest (scripts/test-needs.mjs)
// says in one line what the suite needs besides Node and how to install it, and stops,
// where it cannot install it itself; where all is there it does nothing.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/test-needs.mjs', import.meta.url));

it('names PostgreSQL, Chromium, openssl, groff, bash-completion, tmux and fish and the apt-get line when they are missing', () => {
  // An empty root: a machine with Node and nothing else.
  const fresh = mkdtempSync(join(tmpdir(), 'posdata-fresh-root-'));
  try {
    const r = spawnSync(process.execPath, [script], {
      env: { ...process.env, POSDATA_TEST_NEEDS_ROOT: fresh },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'npm test needs postgresql (the sync tests), chromium (the /docs browser test), openssl (the TLS tests), groff-base (the man page tests), bash-completion (the bash completion test), tmux (the terminal tests), fish (the fish completion test): install them (as root on Debian: apt-get update && apt-get install -y postgresql chromium openssl groff-base bash-completion tmux fish), then run npm test again\n',
    );
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

it('does nothing where all is there (this machine runs the suite)', () => {
  const r = spawnSync(process.execPath, [script], {
    env: { ...process.env, POSDATA_TEST_NO_INSTALL: '1' },
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

// As root on Debian it installs with apt-get; another apt holding the dpkg lock (an
// unattended upgrade, a second npm test) made both apt-get calls fail at once. A stand-in
// apt-get, alone on PATH (so every other need is missing), records how it is called.
it.runIf(process.getuid?.() === 0)('waits for the dpkg lock that another apt holds', () => {
  const bin = mkdtempSync(join(tmpdir(), 'posdata-apt-'));
  try {
    const log = join(bin, 'calls');
    writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\necho "$*" >> '${log}'\n`);
    chmodSync(join(bin, 'apt-get'), 0o755);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('POSDATA_TEST_NEEDS') && k !== 'POSDATA_TEST_NO_INSTALL',
      ),
    );
    const r = spawnSync(process.execPath, [script], { env: { ...env, PATH: bin }, encoding: 'utf8' });
    expect(r.stderr).toMatch(/^npm test: installing .*tmux.* with apt-get/);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^-o DPkg::Lock::Timeout=600 update\b/);
    expect(calls[1]).toMatch(/^-o DPkg::Lock::Timeout=600 install -y\b/);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});
