// Shell completion (issue 25): `posdata complete -- WORDS` as the scripts of
// `posdata completion SHELL` call it at each Tab, with the words a shell passes; and a real
// bash with bash-completion, sourcing the script and completing COMP_WORDS through the built CLI.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshConfigDir, loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The values offered for the last word, and tab's directive (`4`: no files; `0`: files). */
async function complete(words: string[], env: Record<string, string> = {}) {
  const r = await runCli(['complete', '--', ...words], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  const lines = r.stdout.trimEnd().split('\n');
  const directive = lines.pop();
  const pairs = lines.map((l) => l.split('\t') as [string, string]);
  return { values: pairs.map(([v]) => v), pairs, directive };
}

describe('commands and flags, from their declarations', () => {
  it("a command's name, with its summary; the protocol's own command is not offered", async () => {
    const all = await complete(['']);
    expect(all.values).toEqual(expect.arrayContaining(['login', 'sales', 'lines', 'summary', 'completion']));
    expect(all.values).not.toContain('complete');
    expect(all.directive).toBe(':4');
    expect((await complete(['sal'])).pairs).toEqual([['sales', 'Sales tickets (pos.order)']]);
    expect((await complete(['su'])).values).toEqual(['summary']);
  });

  it("a command's flags, and only its own", async () => {
    const sales = await complete(['sales', '--']);
    expect(sales.values).toEqual(
      expect.arrayContaining(['--from', '--limit', '--format', '--output', '--profile', '--debug', '--help']),
    );
    expect((await complete(['sales', '--li'])).pairs).toEqual([
      ['--limit', 'at most N records (default all)'],
    ]);
    const lines = await complete(['lines', '--']);
    // lines reads a range (--from) but keeps no checkpoint, nor the sales' --with-payments.
    expect(lines.values).toContain('--from');
    expect(lines.values).not.toContain('--checkpoint');
    expect(lines.values).not.toContain('--with-payments');
    expect((await complete(['summary', '--'])).values).toContain('--by');
    expect((await complete(['sales', '-'])).values).toEqual(expect.arrayContaining(['-o', '-q']));
  });

  it('flag values: formats, --by keys, states, zones, choices, shells', async () => {
    expect((await complete(['sales', '--format', ''])).values).toEqual([
      'table',
      'json',
      'ndjson',
      'csv',
      'parquet',
    ]);
    expect((await complete(['sales', '--format=n'])).values).toEqual(['ndjson']);
    expect((await complete(['whoami', '--format', ''])).values).toEqual(['text', 'json']);
    expect((await complete(['sales', '--protocol', 'j'])).values).toEqual(['jsonrpc', 'json2']);
    expect((await complete(['summary', '--by', 'day,h'])).values).toEqual(['day,hour']);
    // A comma-separated list: the items given are not offered again.
    const states = await complete(['sales', '--state', 'paid,']);
    expect(states.values).toEqual(['paid,draft', 'paid,done', 'paid,cancel', 'paid,invoiced']);
    expect((await complete(['sales', '--tz', 'Europe/Bru'])).values).toEqual(['Europe/Brussels']);
    expect((await complete(['reconcile', '--tz', 'UT'])).values).toContain('UTC');
    expect((await complete(['completion', ''])).values).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect((await complete(['sync', 'sales', 'pay'])).values).toEqual(['payment_methods', 'payments']);
  });

  it('a flag that names a file lets the shell list files; a flag that takes a number offers nothing', async () => {
    expect(await complete(['sales', '-o', ''])).toEqual({ values: [], pairs: [], directive: ':0' });
    expect((await complete(['sales', '--checkpoint', ''])).directive).toBe(':0');
    expect(await complete(['sales', '--limit', ''])).toEqual({ values: [], pairs: [], directive: ':4' });
  });
});

describe('values from the server, remembered by earlier runs', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  let registers: { id: number; name: string }[];
  let orderFields: string[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 25, orders: 30 });
    const rpc = new Rpc(sandbox.url);
    registers = await rpc.searchRead<{ id: number; name: string }>('pos.config', [], {
      fields: ['name'],
      order: 'id',
    });
    orderFields = Object.keys(await rpc.kw<Record<string, unknown>>('pos.order', 'fields_get', [])).sort();
    env = await loginEnv(sandbox.url);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('nothing before a run read them, and no request at a Tab', async () => {
    expect((await complete(['sales', '--config-id', ''], env)).values).toEqual([]);
    expect((await complete(['sales', '--fields', ''], env)).values).toEqual([]);
  });

  it('registers with their names, and field names, once a command has read them; with the server gone', async () => {
    expect((await runCli(['configs', '--format', 'csv'], { env })).code).toBe(0);
    expect((await runCli(['sales', '--limit', '1', '--format', 'csv'], { env })).code).toBe(0);
    const file = join(env.POSDATA_CONFIG_DIR as string, 'completion.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await sandbox.close();

    const ids = await complete(['sales', '--config-id', ''], env);
    expect(ids.pairs).toEqual(registers.map((r) => [String(r.id), r.name]));
    expect(ids.directive).toBe(':4');
    expect((await complete(['summary', '--config-id='], env)).values).toEqual(
      registers.map((r) => String(r.id)),
    );
    const fields = await complete(['sales', '--fields', 'id,'], env);
    expect(fields.values).toEqual(orderFields.filter((f) => f !== 'id').map((f) => `id,${f}`));
    expect((await complete(['sales', '--fields', 'amount_t'], env)).values).toEqual([
      'amount_tax',
      'amount_total',
    ]);
    // Another server or database has nothing remembered.
    expect((await complete(['sales', '--db', 'other', '--config-id', ''], env)).values).toEqual([]);
  });

  it('profile names from the store', async () => {
    const store = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const other = await startTestSandbox({ seed: 1, orders: 5 });
    try {
      for (const profile of ['shop', 'staging']) {
        const r = await runCli(
          [
            'login',
            '--profile',
            profile,
            '--url',
            other.url,
            '--db',
            'demo',
            '--user',
            'admin',
            '--password-stdin',
          ],
          { env: store, input: 'admin' },
        );
        expect(r.code, r.stderr).toBe(0);
      }
    } finally {
      await other.close();
    }
    expect((await complete(['sales', '--profile', ''], store)).values).toEqual(['shop', 'staging']);
    expect((await complete(['profiles', '--use', 'st'], store)).values).toEqual(['staging']);
    expect((await complete(['logout', '--profile', ''], store)).values).toEqual(['shop', 'staging']);
  });
});

/**
 * An interactive `shell` (no rc files) in a tmux pane, in a folder holding export-one.csv, with
 * the built CLI on PATH as `posdata`, as `npm install -g` puts it: keys typed as a person
 * would, and the pane read back.
 */
function interactive(shell: string, env: Record<string, string> = {}) {
  const bin = mkdtempSync(join(tmpdir(), 'posdata-bin-'));
  symlinkSync(BIN, join(bin, 'posdata'));
  const files = mkdtempSync(join(tmpdir(), 'posdata-files-'));
  writeFileSync(join(files, 'export-one.csv'), '');
  const socket = `posdata-${shell.split(' ')[0]}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-s',
    'tab',
    '-x',
    '150',
    '-y',
    '20',
    `env -i HOME=${files} PATH=${bin}:${process.env.PATH} TERM=xterm NO_COLOR=1 ${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} ${shell}`,
  );
  /** The pane's text once `want` holds of it (looked at every 100 ms, for up to 20 s). */
  const pane = async (want: (text: string) => boolean) => {
    let text = '';
    for (let i = 0; i < 200 && !want(text); i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = tmux('capture-pane', '-p', '-t', 'tab');
    }
    return text;
  };
  const keys = (...k: string[]) => tmux('send-keys', '-t', 'tab', ...k);
  return {
    pane,
    keys,
    /** Runs `line` in the files' folder and waits for it to be done. */
    run: async (line: string) => {
      keys(`cd ${files}; ${line}; echo ready`, 'Enter');
      await pane((t) => /^ready$/m.test(t));
    },
    close: () => tmux('kill-server'),
  };
}

describe('the scripts', () => {
  it('posdata completion SHELL prints the script for each shell; another shell is a usage error', async () => {
    const bash = await runCli(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toMatch(/^complete -o default -F __posdata_complete posdata$/m);
    expect(bash.stdout).toContain('posdata complete -- ');
    expect((await runCli(['completion', 'zsh'])).stdout).toMatch(/^#compdef posdata$/m);
    expect((await runCli(['completion', 'fish'])).stdout).toMatch(/^complete -c posdata /m);
    const tcsh = await runCli(['completion', 'tcsh']);
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toBe(
      "posdata: no completion for shell 'tcsh'; use one of bash, zsh, fish, powershell\n",
    );
  });

  const bashCompletion = '/usr/share/bash-completion/bash_completion';
  // bash-completion is one of the suite's needs (scripts/test-needs.mjs installs it).
  it('a real bash completes through the built CLI', () => {
    // posdata on PATH, as `npm install -g` puts it.
    const bin = mkdtempSync(join(tmpdir(), 'posdata-bin-'));
    symlinkSync(BIN, join(bin, 'posdata'));
    const tab = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source ${bashCompletion}; source <(posdata completion bash); complete -p posdata
           COMP_LINE="$1"; COMP_POINT=\${#COMP_LINE}; read -ra COMP_WORDS <<< "$1"
           [[ "$1" == *" " ]] && COMP_WORDS+=("")
           COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
           __posdata_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'bash',
          line,
        ],
        {
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
          encoding: 'utf8',
          // compopt speaks only inside a completion that readline started: its complaint is noise here.
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
        .trimEnd()
        .split('\n');
    const [registered, ...offered] = tab('posdata sal');
    expect(registered).toBe('complete -o default -F __posdata_complete posdata');
    expect(offered).toEqual(['sales']);
    expect(tab('posdata sales --lim').slice(1)).toEqual(['--limit']);
    expect(tab('posdata summary --by we').slice(1)).toEqual(['weekday']);
    expect(tab('posdata sales --format ').slice(1)).toEqual(['table', 'json', 'ndjson', 'csv', 'parquet']);
  });

  // What COMP_WORDS cannot show: readline's own file names where posdata offers none (-o),
  // and none where it asked for none (--limit). bash in a tmux pane, Tab typed as a person would.
  it('in an interactive bash, Tab after -o lists files, after --limit nothing', async () => {
    const t = interactive('bash --norc --noprofile');
    try {
      await t.run(`source ${bashCompletion}; source <(posdata completion bash)`);
      t.keys('posdata sales -o exp', 'Tab');
      expect(await t.pane((x) => x.includes('export-one.csv'))).toMatch(/posdata sales -o export-one\.csv/);
      t.keys('C-u', 'posdata sales --limit ', 'Tab', 'Tab', ' ; echo done', 'Enter');
      const after = await t.pane((x) => /^done$/m.test(x));
      expect(after).toMatch(/posdata sales --limit {2}; echo done/);
      expect(after.split('--limit')[1]).not.toContain('export-one.csv');
    } finally {
      t.close();
    }
  });

  // zsh completes only at a terminal: an interactive zsh (no rc files) in a tmux pane, with
  // compinit and the script, Tab typed as a person would.
  it.skipIf(!existsSync('/usr/bin/zsh'))(
    'in an interactive zsh, Tab completes commands, flag values and files',
    async () => {
      const t = interactive('zsh -f');
      /** What the pane shows after a Tab at the end of `line` (the line typed afresh). */
      const tab = (line: string, want: RegExp) => {
        t.keys('C-u', line, 'Tab');
        return t.pane((x) => want.test(x));
      };
      try {
        await t.run('autoload -U compinit; compinit -u; source <(posdata completion zsh)');
        expect(await tab('posdata sal', / posdata sales\s*$/m)).toMatch(/ posdata sales\s*$/m);
        const formats = await tab('posdata sales --format ', /parquet/);
        for (const f of ['table', 'json', 'ndjson', 'csv', 'parquet'])
          expect(formats).toMatch(new RegExp(`\\b${f}\\b`));
        expect(await tab('posdata summary --by we', /--by weekday/)).toMatch(/posdata summary --by weekday/);
        expect(await tab('posdata sales -o exp', /export-one\.csv/)).toMatch(
          /posdata sales -o export-one\.csv/,
        );
      } finally {
        t.close();
      }
    },
  );

  // fish completes a command line without a terminal: `complete -C LINE` prints what Tab offers.
  it('a real fish completes through the built CLI, files included', () => {
    const bin = mkdtempSync(join(tmpdir(), 'posdata-bin-'));
    symlinkSync(BIN, join(bin, 'posdata'));
    const files = mkdtempSync(join(tmpdir(), 'posdata-files-'));
    writeFileSync(join(files, 'export-one.csv'), '');
    const tab = (line: string) =>
      execFileSync('fish', ['-c', `posdata completion fish | source; complete -C "${line}"`], {
        cwd: files,
        env: { HOME: files, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
        encoding: 'utf8',
      })
        .trimEnd()
        .split('\n');
    expect(tab('posdata sal')).toEqual(['sales\tSales tickets (pos.order)']);
    expect(tab('posdata sales --format ')).toEqual(['csv', 'json', 'ndjson', 'parquet', 'table']);
    expect(tab('posdata summary --by day,w')).toEqual(['day,weekday']);
    expect(tab('posdata sales -o exp')).toEqual(['export-one.csv']);
  });

  // A Tab of the built CLI loads no command module: it reads the table the build wrote from
  // the same declarations (dist/completion.json).
  it('the built CLI completes from the table the build wrote, which is the declarations', async () => {
    const { COMMANDS } = await import('../../src/main.js');
    const { completionTable } = await import('../../src/cli/completion.js');
    const { loadListed } = await import('../../src/cli/command.js');
    const declared = completionTable(await Promise.all(COMMANDS.map(loadListed)));
    const built = join(root, 'dist', 'completion.json');
    expect(JSON.parse(readFileSync(built, 'utf8'))).toEqual(JSON.parse(JSON.stringify(declared)));
    // A copy of the built CLI whose table has one flag more: Tab offers it.
    const copy = mkdtempSync(join(tmpdir(), 'posdata-built-'));
    cpSync(join(root, 'bin'), join(copy, 'bin'), { recursive: true });
    cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    const table = JSON.parse(readFileSync(built, 'utf8')) as { name: string; flags: object[] }[];
    table.find((c) => c.name === 'summary')?.flags.push({ spec: '--tabled', description: 'from the table' });
    writeFileSync(join(copy, 'dist', 'completion.json'), JSON.stringify(table));
    const out = execFileSync(
      process.execPath,
      [join(copy, 'bin', 'posdata.js'), 'complete', '--', 'summary', '--tab'],
      {
        encoding: 'utf8',
      },
    );
    expect(out).toBe('--tabled\tfrom the table\n:4\n');
  });
});

// A hostile (or compromised) Odoo sends field names and register names that are shell code;
// earlier runs remember them for completion. A Tab in a real bash, zsh and fish never runs
// them: posdata offers only plain names, and the scripts take what it offers as data (no
// `compgen -W`, no eval of the typed words).
describe("a server's names at a Tab", () => {
  let sandbox: SandboxHandle;
  let proxy: RpcProxy;
  let env: Record<string, string>;
  let marks: string;
  const bashCompletion = '/usr/share/bash-completion/bash_completion';
  const bin = mkdtempSync(join(tmpdir(), 'posdata-bin-'));
  symlinkSync(BIN, join(bin, 'posdata'));
  /** A command that leaves a file in the marks folder if a shell ever runs it. */
  const plant = (n: number) => `touch ${marks}/ran-${n}`;
  const ran = () => [1, 2, 3, 4, 5, 6, 7].filter((n) => existsSync(join(marks, `ran-${n}`)));

  beforeAll(async () => {
    marks = mkdtempSync(join(tmpdir(), 'posdata-marks-'));
    sandbox = await startTestSandbox({ seed: 25, orders: 10, now: new Date('2026-03-10T12:00:00Z') });
    proxy = await startRpcProxy(sandbox.url);
    proxy.rewrite.set('fields_get', (result) => ({
      ...(result as object),
      [`$(${plant(1)})`]: { type: 'char', string: 'x' },
      [`\`${plant(2)}\``]: { type: 'char', string: 'x' },
      [`amount_$(${plant(3)})`]: { type: 'char', string: 'x' },
    }));
    proxy.rewrite.set('search_read', (result, body) =>
      body.includes('"pos.config"') && Array.isArray(result)
        ? result.map((r: { name: string }) => ({ ...r, name: `${r.name} $(${plant(4)})\x1b]0;pwned\x07` }))
        : result,
    );
    env = await loginEnv(proxy.url);
    expect((await runCli(['configs', '--format', 'csv'], { env })).code).toBe(0);
    expect((await runCli(['sales', '--limit', '1', '--format', 'csv'], { env })).code).toBe(0);
    // A profile named as no one would, in a store edited by hand (login refuses such names
    // today; an older posdata stored them).
    const file = join(env.POSDATA_CONFIG_DIR as string, 'config.json');
    const store = JSON.parse(readFileSync(file, 'utf8'));
    store.profiles[`x$(${plant(5)})`] = store.profiles.default;
    writeFileSync(file, JSON.stringify(store), { mode: 0o600 });
  });

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it('posdata offers plain names only, and a register name escaped', async () => {
    const cache = readFileSync(join(env.POSDATA_CONFIG_DIR as string, 'completion.json'), 'utf8');
    expect(cache).toContain(plant(1));
    const fields = (await complete(['sales', '--fields', ''], env)).values;
    expect(fields).toContain('amount_total');
    expect(fields.filter((f) => !/^[a-z_0-9]+$/.test(f))).toEqual([]);
    const ids = await complete(['sales', '--config-id', ''], env);
    expect(ids.values.length).toBeGreaterThan(0);
    for (const [id, name] of ids.pairs) {
      expect(id).toMatch(/^\d+$/);
      expect(name).toContain('\\x1b]0;pwned\\x07');
    }
    expect((await complete(['sales', '--profile', ''], env)).values).toEqual(['default']);
    expect(ran()).toEqual([]);
  });

  it('a real bash runs none of them, nor the words typed', () => {
    const tab = (words: string[]) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source ${bashCompletion}; source <(posdata completion bash)
           COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=\${#COMP_LINE}
           __posdata_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'bash',
          ...words,
        ],
        {
          env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
        .trimEnd()
        .split('\n');
    const fields = tab(['posdata', 'sales', '--fields', '']);
    expect(ran()).toEqual([]);
    expect(fields).toContain('amount_total');
    expect(tab(['posdata', 'sales', '--fields', 'amount_'])).toEqual(
      expect.arrayContaining(['amount_tax', 'amount_total']),
    );
    expect(tab(['posdata', 'sales', '--fields=amount_to'])).toEqual(['--fields=amount_total']);
    expect(tab(['posdata', 'sales', '--config-id', '']).every((v) => /^\d+$/.test(v))).toBe(true);
    expect(tab(['posdata', 'sales', '--profile', ''])).toEqual(['default']);
    // The words typed before the one completed are passed as they are, never evaluated.
    expect(tab(['posdata', 'sales', '--domain', `"$(${plant(6)})"`, '--fo'])).toEqual(['--format']);
    expect(tab(['posdata', 'sales', '--fields', `\`${plant(7)}\``])).toEqual(['']);
    expect(ran()).toEqual([]);
  });

  it('a real fish runs none of them', () => {
    const tab = (line: string) =>
      execFileSync('fish', ['-c', `posdata completion fish | source; complete -C "${line}"`], {
        env: { ...env, HOME: marks, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
        encoding: 'utf8',
      })
        .trimEnd()
        .split('\n');
    expect(tab('posdata sales --fields ')).toContain('amount_total');
    const ids = tab('posdata sales --config-id ');
    expect(ids.length).toBeGreaterThan(0);
    for (const l of ids) expect(l).toMatch(/^\d+\t.*\\x1b\]0;pwned\\x07$/);
    expect(tab('posdata sales --profile ')).toEqual(['default']);
    expect(ran()).toEqual([]);
  });

  it.skipIf(!existsSync('/usr/bin/zsh'))('an interactive zsh runs none of them', async () => {
    const t = interactive('zsh -f', { POSDATA_CONFIG_DIR: env.POSDATA_CONFIG_DIR as string });
    try {
      await t.run('autoload -U compinit; compinit -u; source <(posdata completion zsh)');
      t.keys('C-u', 'posdata sales --fields amount_', 'Tab');
      expect(await t.pane((x) => /amount_total/.test(x))).toMatch(/amount_total/);
      t.keys('C-u', 'posdata sales --config-id ', 'Tab');
      expect(await t.pane((x) => /pwned/.test(x))).toMatch(/\\?x1b\]0;pwned\\?x07/);
      t.keys('C-u', 'posdata sales --profile ', 'Tab');
      expect(await t.pane((x) => /--profile default/.test(x))).toMatch(/posdata sales --profile default/);
      t.keys('C-u', 'echo done', 'Enter');
      await t.pane((x) => /^done$/m.test(x));
    } finally {
      t.close();
    }
    expect(ran()).toEqual([]);
  });
});
