#!/usr/bin/env node
// `npm test` runs this first (npm's pretest): the suite needs, besides Node, Debian's
// PostgreSQL server binaries (the sync tests start throwaway clusters with initdb), Chromium
// (the /docs page in a headless browser), openssl (a private CA for the TLS tests), groff (the
// man pages, checked with groff -ww), and bash-completion, tmux and fish (real shells
// completing posdata; summary --watch redrawing in place). On a fresh Debian machine, as
// root, it installs what is missing with apt-get, saying so in one line; elsewhere it says in
// one line what to install and stops (exit 1). Nothing is done when all is there. POSDATA_TEST_NO_INSTALL=1 only checks.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where to look: `/` (a test points it at an empty folder to see what a fresh machine lacks). */
const root = process.env.POSDATA_TEST_NEEDS_ROOT ?? '/';
const at = (...p) => join(root, ...p);

function onPath(cmd) {
  const dirs = root === '/' ? (process.env.PATH ?? '').split(delimiter) : ['/usr/bin', '/bin'];
  return dirs.some((d) => d && existsSync(root === '/' ? join(d, cmd) : at(d, cmd)));
}

function postgresServer() {
  const dir = at('usr', 'lib', 'postgresql');
  return existsSync(dir) && readdirSync(dir).some((v) => existsSync(join(dir, v, 'bin', 'initdb')));
}

const needs = [
  { pkg: 'postgresql', for: 'the sync tests', there: postgresServer },
  { pkg: 'chromium', for: 'the /docs browser test', there: () => existsSync(at('usr', 'bin', 'chromium')) },
  { pkg: 'openssl', for: 'the TLS tests', there: () => onPath('openssl') },
  { pkg: 'groff-base', for: 'the man page tests', there: () => onPath('groff') },
  {
    pkg: 'bash-completion',
    for: 'the bash completion test',
    there: () => existsSync(at('usr', 'share', 'bash-completion', 'bash_completion')),
  },
  { pkg: 'tmux', for: 'the terminal tests', there: () => onPath('tmux') },
  { pkg: 'fish', for: 'the fish completion test', there: () => onPath('fish') },
];

const missing = needs.filter((n) => !n.there());
if (missing.length === 0) process.exit(0);

const pkgs = missing.map((n) => n.pkg);
const why = missing.map((n) => `${n.pkg} (${n.for})`).join(', ');
const canInstall =
  process.env.POSDATA_TEST_NO_INSTALL !== '1' &&
  process.getuid?.() === 0 &&
  root === '/' &&
  onPath('apt-get');
if (!canInstall) {
  process.stderr.write(
    `npm test needs ${why}: install them (as root on Debian: apt-get update && apt-get install -y ${pkgs.join(' ')}), then run npm test again\n`,
  );
  process.exit(1);
}
process.stderr.write(`npm test: installing ${why} with apt-get (once; a few minutes)\n`);
try {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt (unattended-upgrades at boot, a second npm test) holding the dpkg lock made
  // apt-get fail at once: wait for it, up to ten minutes; apt says on stderr whom it waits for.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  execFileSync('apt-get', [...wait, 'update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', [...wait, 'install', '-y', '-qq', ...pkgs], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
} catch {
  process.stderr.write(
    `npm test: apt-get could not install ${pkgs.join(' ')}; install them, then run npm test again\n`,
  );
  process.exit(1);
}
const still = needs.filter((n) => !n.there()).map((n) => n.pkg);
if (still.length > 0) {
  process.stderr.write(`npm test: still missing after apt-get: ${still.join(' ')}\n`);
  process.exit(1);
}
