// Lazy loading as a rule: the help of the built CLI loads what it shows and no more. Node's
// module hooks record every file the process loads; each bundle chunk's source map names
// the modules of src/ and the packages inside it. `posdata --help` lists the registry's lines
// (src/main.ts) and loads no command module; `posdata NAME --help` loads its own command module
// and no other; neither loads a package beyond the pure start-up ones bundled in
// (scripts/bundle.mjs): not the HTTP client, PostgreSQL, the server, Parquet or the store.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/catalog/resources.js';
import { COMMANDS } from '../../src/main.js';
import { BIN } from '../helpers/cli.js';
import { loadHooks, modulesOf } from '../helpers/loaded.js';

const { dir, register } = loadHooks('posdata-lazy-');

/** The packages help may load: the help's own renderer and the small pure ones bundled for start-up. */
const START_UP_PACKAGES = ['commander', 'luxon', 'csv-stringify'];

/** The modules `posdata ...args` loads: src/ modules and packages, from the files and their source maps. */
function loaded(args: string[], env: Record<string, string> = {}): Set<string> {
  const log = join(dir, `${args.join('_') || 'none'}.log`);
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['--import', register, BIN, ...args], {
    env: { ...process.env, POSDATA_LOADED: log, NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return modulesOf(readFileSync(log, 'utf8').split('\n'));
}

const commandModules = (m: Set<string>) => [...m].filter((x) => x.startsWith('src/commands/')).sort();
const packages = (m: Set<string>) =>
  [...m]
    .filter((x) => x.startsWith('node_modules/'))
    .map((x) => x.slice('node_modules/'.length))
    .filter((p) => !START_UP_PACKAGES.includes(p))
    .sort();

/** The module of a registry entry (src/main.ts): the list commands share one. */
const moduleOfCommand = (name: string) => `src/commands/${name in RESOURCES ? 'list' : name}.ts`;

/** What the help written before the program loads is made of (dist/help.js). */
const PREBUILT = ['bin/posdata.js', 'src/cli/colour.ts', 'src/cli/prebuilt-help.ts'];

describe('help loads what it shows and no more', () => {
  // On a pipe (as here) a command's --help is the text the build rendered: no program at all.
  it.each([[['--help']], [['-h']], [['sales', '--help']], [['sync', '-h']]])(
    'posdata %j on a pipe loads the prebuilt help alone',
    (args) => {
      expect([...loaded(args)].sort()).toEqual(PREBUILT);
    },
  );

  // Rendered live (a terminal, or colour asked for with FORCE_COLOR): the program, lazily.
  it.each([[['--help']], [['help']], [[]]])('posdata %j loads no command module and no package', (args) => {
    const m = loaded(args, { FORCE_COLOR: '1', NO_COLOR: '' });
    expect(m.has('src/main.ts')).toBe(true);
    expect(commandModules(m)).toEqual([]);
    expect(packages(m)).toEqual([]);
  });

  it.each(COMMANDS.map((e) => e.name))(
    'posdata %s --help, rendered live, loads its own command module and no package',
    (name) => {
      const m = loaded([name, '--help'], { FORCE_COLOR: '1', NO_COLOR: '' });
      expect(commandModules(m)).toEqual([moduleOfCommand(name)]);
      expect(packages(m)).toEqual([]);
    },
  );

  it('posdata help NAME loads as posdata NAME --help does', () => {
    expect(commandModules(loaded(['help', 'sync']))).toEqual(['src/commands/sync.ts']);
  });
});
