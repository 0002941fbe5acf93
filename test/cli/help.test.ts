// Help that reads (issue 25): flags grouped as gh groups them, the command's own first, and
// only what the command has; suggestions for a mistyped command or flag that point at the
// command's help; --version with what a bug report needs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_GROUP_HEADINGS } from '../../src/cli/command.js';
import { EXIT_CODE_LIST } from '../../src/cli/program.js';
import { COMMANDS } from '../../src/main.js';
import { runCli, spawnCli } from '../helpers/cli.js';

/** The group headings of a help text, in order. */
const headings = (help: string) => help.split('\n').filter((l) => /^(?:[A-Z][a-z]+ )?[Oo]ptions:$/.test(l));

describe('help grouped as gh does', () => {
  it('sales: query, output, connection, then global flags (with -h)', async () => {
    const r = await runCli(['sales', '--help']);
    expect(r.code).toBe(0);
    expect(headings(r.stdout)).toEqual([
      'Query options:',
      'Output options:',
      'Connection options:',
      'Global options:',
    ]);
    const section = (h: string) => r.stdout.split(`${h}\n`)[1]?.split('\n\n')[0] ?? '';
    expect(section('Query options:')).toMatch(/^ {2}--config-id <id>/);
    expect(section('Output options:')).toMatch(/--format <fmt>/);
    expect(section('Connection options:')).toMatch(/--profile <name>/);
    expect(section('Global options:')).toMatch(/--debug[\s\S]*-h, --help/);
    expect(section('Query options:')).not.toMatch(/--profile|--debug|--format/);
  });

  it("summary: the command's own flags come first, under Options", async () => {
    const r = await runCli(['summary', '--help']);
    expect(headings(r.stdout)).toEqual([
      'Options:',
      'Output options:',
      'Connection options:',
      'Global options:',
    ]);
    expect(r.stdout.split('Options:\n')[1]).toMatch(/^ {2}--date <day>/);
  });

  it("lines --help names no flag or field lines does not have (its range is its tickets' date)", async () => {
    const r = await runCli(['lines', '--help']);
    expect(r.code).toBe(0);
    const flags = [...r.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]);
    for (const mentioned of r.stdout.match(/--[a-z][\w-]*/g) ?? []) expect(flags).toContain(mentioned);
    // lines reads a range through its tickets (order_id.date_order), and sorts by its own fields only.
    expect(r.stdout).toMatch(/--from <when> +from this time on order_id\.date_order/);
    expect(r.stdout).not.toMatch(/"date_order desc|[^.]date_order/);
    // sales has them, and its help says so.
    const sales = await runCli(['sales', '--help']);
    // --tz's help says the rule of src/query/zone.ts zoneFor, as the docs do.
    expect(sales.stdout.replace(/\s+/g, ' ')).toMatch(
      /IANA zone of --from\/--to and of a table's times \(default: the profile's, login --tz, else the Odoo user's zone\); times in CSV, JSON and Parquet are UTC unless --tz is given/,
    );
    expect(sales.stdout).toMatch(/"date_order desc, id"/);
  });
});

describe('posdata --help', () => {
  it('lists every command once, in groups as gh does (profile, POS data, reports, pipelines, other)', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    const commands = COMMANDS;
    const blocks = r.stdout.split('\n\n').filter((b) => / commands:\n/.test(b));
    expect(blocks.map((b) => b.split('\n')[0])).toEqual(Object.values(COMMAND_GROUP_HEADINGS));
    const seen: string[] = [];
    for (const block of blocks) {
      const group = Object.entries(COMMAND_GROUP_HEADINGS).find(([, h]) => h === block.split('\n')[0])?.[0];
      const names = [...block.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1] as string);
      const want = commands.filter((c) => c.group === group).map((c) => c.name);
      expect(names).toEqual(group === 'tool' ? [...want, 'help'] : want);
      seen.push(...names);
    }
    expect(seen.sort()).toEqual([...commands.map((c) => c.name), 'help'].sort());
    expect(r.stdout).not.toMatch(/^Commands:$/m);
  });

  // The page of exit codes lists each the help lists (8, a chain's failed servers, was missing).
  it('docs/terminal.md lists every exit code', () => {
    const page = readFileSync(new URL('../../docs/terminal.md', import.meta.url), 'utf8');
    const table = page.split('## Exit codes')[1] ?? '';
    const codes = [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    for (const [code] of EXIT_CODE_LIST) expect(codes, `exit ${code}`).toContain(code);
  });

  // "the spec" is a document of posdata's makers, not of its users: no help names it.
  it('no help names a spec the user has never seen', async () => {
    for (const args of [['--help'], ...COMMANDS.map((c) => [c.name, '--help'])]) {
      const r = await runCli(args);
      expect(r.code).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(/\bspec's|\bthe spec\b|REST-like/);
      // Pointers name the page that says it (docs/…), not a README that no longer does.
      expect(r.stdout, args.join(' ')).not.toMatch(/see (the )?README/);
    }
  });
});

describe('suggestions', () => {
  const cases: [string[], string][] = [
    [['sale'], "posdata: unknown command 'sale'; did you mean sales? see posdata sales --help\n"],
    [['slaes'], "posdata: unknown command 'slaes'; did you mean sales? see posdata sales --help\n"],
    [['help', 'sale'], "posdata: unknown command 'sale'; did you mean sales? see posdata sales --help\n"],
    [['xyzzy'], "posdata: unknown command 'xyzzy'; see posdata --help\n"],
    [
      ['sales', '--limt', '3'],
      "posdata: unknown option '--limt'; did you mean --limit? see posdata sales --help\n",
    ],
    [
      ['summary', '--dte', 'today'],
      "posdata: unknown option '--dte'; did you mean --date? see posdata summary --help\n",
    ],
    [['sales', '--bogus'], "posdata: unknown option '--bogus'; see posdata sales --help\n"],
    [['sales', '--limit'], "posdata: option '--limit <n>' argument missing; see posdata sales --help\n"],
    // -v is the version in many tools: posdata's is --version (-V).
    [['-v'], "posdata: unknown option '-v'; did you mean --version? see posdata --help\n"],
  ];
  for (const [args, line] of cases) {
    it(`posdata ${args.join(' ')}: exit 2, one line`, async () => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(line);
      expect(r.stdout).toBe('');
    });
  }
});

describe('--version', () => {
  it('the version alone on the first line, then Node.js, the platform and the protocols', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lines[1]).toBe(`Node.js ${process.versions.node} on ${process.platform}-${process.arch}`);
    expect(lines[2]).toMatch(/JSON-RPC.*JSON-2/);
  });

  it('the built launcher answers the same, alone and after a command word', async () => {
    const inProcess = (await runCli(['--version'])).stdout;
    const launched = await spawnCli(['--version']);
    expect(launched.code).toBe(0);
    expect(launched.stdout).toBe(inProcess);
    expect((await spawnCli(['-V'])).stdout).toBe(inProcess);
  });
});
