// The help written before the program loads (src/cli/prebuilt-help.ts): on a pipe or into a
// file, `posdata NAME --help` prints the text the build rendered (dist/help.json), and that text
// is byte for byte what the program itself renders there; where it does not apply (a terminal,
// FORCE_COLOR, a name the build did not render, no texts) the program answers as before.
// test/cli/lazy.test.ts checks what each way loads; test/cli/terminal.test.ts the terminal's.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpAsked, printPrebuiltHelp } from '../../src/cli/prebuilt-help.js';
import { COMMANDS } from '../../src/main.js';
import { BIN, runCli, spawnCli } from '../helpers/cli.js';

const TEXTS = new URL('../../dist/help.json', import.meta.url);
const texts = JSON.parse(readFileSync(TEXTS, 'utf8')) as Record<string, string>;
const dir = mkdtempSync(join(process.env.POSDATA_TEST_TMP ?? tmpdir(), 'posdata-help-'));
const names = ['', ...COMMANDS.map((e) => e.name)];
const line = (name: string, flag = '--help') => (name === '' ? [flag] : [name, flag]);

describe('the prebuilt help', () => {
  it('has a text for posdata and for every command of the registry, and no other', () => {
    expect(Object.keys(texts).sort()).toEqual([...names].sort());
  });

  it.each(names)('posdata %s --help on a pipe is what the program renders, byte for byte', async (name) => {
    const live = await runCli(line(name));
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('Usage: posdata');
    const piped = await spawnCli(line(name));
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe(live.stdout);
    expect(piped.stdout).toBe(texts[name]);
  });

  it('answers -h as --help', async () => {
    expect((await spawnCli(['sales', '-h'])).stdout).toBe(texts.sales);
    expect((await spawnCli(['-h'])).stdout).toBe(texts['']);
  });

  it.each([
    [['--help'], ''],
    [['-h'], ''],
    [['sales', '--help'], 'sales'],
    [['sync', '-h'], 'sync'],
    [['sales'], undefined],
    [['sales', '--limit', '1', '--help'], undefined],
    [['--help', 'sales'], undefined],
    [['--debug', '--help'], undefined],
    [['../x', '--help'], undefined],
    [[], undefined],
  ] as const)('%j asks for the help of %j', (argv, name) => {
    expect(helpAsked(argv)).toBe(name);
  });

  it('writes into a file, and leaves to the program what it has no text for', () => {
    const file = join(dir, 'help.txt');
    const fd = openSync(file, 'w');
    try {
      expect(printPrebuiltHelp(['summary', '--help'], {}, fd, TEXTS)).toBe(true);
      expect(printPrebuiltHelp(['salez', '--help'], {}, fd, TEXTS)).toBe(false);
      expect(printPrebuiltHelp(['sales', '--help'], {}, fd, pathToFileURL(join(dir, 'none.json')))).toBe(
        false,
      );
      expect(printPrebuiltHelp(['sales', '--help'], { FORCE_COLOR: '1' }, fd, TEXTS)).toBe(false);
      expect(printPrebuiltHelp(['sales', '--limit', '1'], {}, fd, TEXTS)).toBe(false);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(texts.summary);
  });

  it("a name it has no text for gets the program's one line and exit 2", async () => {
    const r = await spawnCli(['salez', '--help']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown command 'salez'");
  });

  it('a reader that went away ends the run quietly, exit 0', () => {
    // `true` leaves at once; a moment later the help meets a pipe with no reader (EPIPE).
    const r = spawnSync(
      'bash',
      ['-c', `{ sleep 0.3; "${process.execPath}" "${BIN}" sales --help; echo "exit $?" >&2; } | true`],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('exit 0\n');
  });
});
