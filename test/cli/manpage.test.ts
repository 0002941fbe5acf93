// The man pages (issue 25): made from the same declarations as --help, clean for groff
// (`groff -man -Tutf8 -ww` warns about nothing), every flag of a command's --help in its page,
// and the pages package.json's `man` lists are those the build writes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_GROUP_HEADINGS, type Listed, loadListed } from '../../src/cli/command.js';
import { type ManPage, manPages } from '../../src/cli/manpage.js';
import { VERSION } from '../../src/cli/version.js';
import { COMMANDS } from '../../src/main.js';
import { runCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let commands: Listed[];
let pages: ManPage[];
const dir = mkdtempSync(join(process.env.POSDATA_TEST_TMP ?? tmpdir(), 'posdata-man-'));

/** A page as man shows it, as plain text: wide lines, no hyphenation, no bold or underline. */
function rendered(file: string): { text: string; warnings: string; status: number | null } {
  const r = spawnSync(
    'groff',
    ['-man', '-Tutf8', '-ww', '-rLL=300n', '-rHY=0', '-P-c', '-P-b', '-P-u', file],
    {
      encoding: 'utf8',
    },
  );
  return { text: r.stdout.replace(/[‐−]/g, '-'), warnings: r.stderr, status: r.status };
}

beforeAll(async () => {
  commands = await Promise.all(COMMANDS.map(loadListed));
  pages = manPages(commands, VERSION);
  for (const p of pages) writeFileSync(join(dir, p.file), p.text);
});

describe('man pages', () => {
  it("show the hourly cron export with -o's {to}, not a $(date) name a second run refuses", async () => {
    for (const file of ['posdata.1', 'posdata-sales.1']) {
      const text = rendered(join(dir, file)).text;
      expect(text, file).toContain("-o '/data/sales-{to}.csv'");
      expect(text, file).not.toContain('$(date');
    }
    for (const args of [['--help'], ['sales', '--help']]) {
      const r = await runCli(args);
      expect(r.stdout).toContain("-o '/data/sales-{to}.csv'");
      expect(r.stdout).not.toContain('$(date');
    }
  });

  it("exit 7 is any figure that differs from Odoo's, summary --check-odoo too", async () => {
    const main = rendered(join(dir, 'posdata.1')).text;
    expect(main).toMatch(
      /\b7\s+a figure differs from Odoo's \(reconcile, books, summary --check-odoo, doctor\)/,
    );
    expect((await runCli(['--help'])).stdout).toMatch(
      /7 a figure differs from Odoo's \(reconcile, books, summary --check-odoo, doctor\)/,
    );
  });

  it('posdata(1) and one page per command', () => {
    expect(pages.map((p) => p.file)).toEqual(['posdata.1', ...commands.map((c) => `posdata-${c.name}.1`)]);
    const main = rendered(join(dir, 'posdata.1')).text;
    for (const c of commands) expect(main).toContain(`posdata-${c.name}(1)`);
    expect(main).toMatch(/EXIT STATUS[\s\S]*130\s+interrupted/);
  });

  it("posdata(1) lists the commands in --help's groups, each under its own", async () => {
    const main = rendered(join(dir, 'posdata.1')).text;
    const listed = main.split('\nCOMMANDS\n')[1]?.split('\nOPTIONS\n')[0] ?? '';
    const help = (await runCli(['--help'])).stdout;
    const helpHeadings = help.split('\n').filter((l) => / commands:$/.test(l));
    const pageHeadings = listed
      .split('\n')
      .filter((l) => /^ {3}\S/.test(l))
      .map((l) => `${l.trim()}:`);
    expect(pageHeadings).toEqual(helpHeadings);
    for (const block of listed.split(/\n(?= {3}\S)/).filter((b) => b.trim() !== '')) {
      const heading = `${block.trim().split('\n')[0]}:`;
      const group = Object.entries(COMMAND_GROUP_HEADINGS).find(([, h]) => h === heading)?.[0];
      const names = [...block.matchAll(/posdata-(\w+)\(1\)/g)].map((m) => m[1]);
      expect(names).toEqual(commands.filter((c) => c.group === group).map((c) => c.name));
    }
  });

  it('groff -man -Tutf8 -ww warns about nothing', () => {
    for (const p of pages) {
      const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', join(dir, p.file)], { encoding: 'utf8' });
      expect(r.status, p.file).toBe(0);
      expect(r.stderr, p.file).toBe('');
    }
  });

  it("every flag of a command's --help is in its page, under the same group", async () => {
    for (const c of commands) {
      const help = (await runCli([c.name, '--help'])).stdout;
      const page = rendered(join(dir, `posdata-${c.name}.1`)).text;
      let groups = 0;
      for (const block of help.split(/\n(?=[A-Z][a-z ]*:\n)/)) {
        const heading = /^([A-Z][a-z ]*options):\n/.exec(block)?.[1];
        if (!heading) continue;
        groups++;
        const section = page.split(`\n${heading.toUpperCase()}\n`)[1]?.split(/\n[A-Z][A-Z ]+\n/)[0] ?? '';
        for (const [, flag] of block.matchAll(/^ {2}((?:-\w, )?--[\w-]+)/gm))
          expect(section, `${c.name}: ${flag} under ${heading}`).toContain(flag as string);
      }
      expect(groups, c.name).toBeGreaterThan(0);
    }
  });

  it('package.json links the pages the build writes; the built ones are the same', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      man: string[];
      files: string[];
    };
    expect([...pkg.man].sort()).toEqual(pages.map((p) => `man/${p.file}`).sort());
    expect(pkg.files).toContain('man/');
    // `npm test` builds first: man/ holds what the source makes.
    const built = readdirSync(join(root, 'man')).sort();
    expect(built).toEqual(pages.map((p) => p.file).sort());
    for (const p of pages) expect(readFileSync(join(root, 'man', p.file), 'utf8'), p.file).toBe(p.text);
    expect(
      execFileSync('man', ['-l', '-Tutf8', join(root, 'man', 'posdata-sales.1')], { encoding: 'utf8' }),
    ).toMatch(/posdata-sales - Sales tickets/);
  });
});
