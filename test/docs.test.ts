// The README and every page of docs/ stay true: each fenced block says what it is (its info
// string), every command block runs against a sandbox, and the links between pages resolve.
//
// The convention (docs/development.md, "Documentation"):
// - a fence's info string is one of FENCES; a block without one fails here;
// - `sh` blocks are run, whole, with bash (`set -e -o pipefail`), and `cron` blocks line by
//   line (the command after the schedule), each in a fresh folder, with `posdata` on PATH and
//   a profile logged in to a sandbox (so `posdata sales` needs no login);
// - a command block that cannot run here says why in an HTML comment on the line before it,
//   `<!-- doc-test: needs postgres -->` (one or more of NEEDS, comma-separated); its posdata
//   commands and flags are still checked against the declarations (dist/completion.json).
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from './helpers/sandbox.js';
import { bash, shellEnv } from './helpers/shell.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a fence's info string says the block is; `run` blocks are commands. */
const FENCES: Record<string, 'run' | 'show'> = {
  sh: 'run',
  cron: 'run',
  text: 'show', // what a terminal shows: output, a layout, a transcript
  json: 'show',
  yaml: 'show',
  sql: 'show',
  python: 'show',
};

/** Why a command block is not run here. */
const NEEDS: Record<string, string> = {
  odoo: 'a real Odoo server (shop.example.com); the sandbox stands in for it elsewhere',
  postgres: 'a PostgreSQL server of your own',
  meltano: 'Meltano and a Singer target',
  duckdb: 'the duckdb command',
  aws: 'an S3 bucket and the aws command',
  interrupt: 'a server or a watch that runs until Ctrl-C',
  host: "the machine's own folders (/var/lib, /data), as a crontab names them",
  shell: "lines for each shell's own start-up file (bash, zsh, fish, PowerShell)",
  checkout: 'npm in a fresh clone of posdata: what CI runs, not a test of its own suite',
};

interface Block {
  file: string;
  line: number;
  info: string;
  body: string;
  needs: string[];
}

const MARKER = /^<!-- doc-test: needs ([a-z, ]+) -->$/;

function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** The fenced blocks of a page, with the marker before each; throws on a stray marker. */
function blocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Block[] = [];
  let open: Block | undefined;
  let marker: { line: number; needs: string[] } | undefined;
  lines.forEach((text, i) => {
    if (open) {
      if (text.startsWith('```')) {
        out.push(open);
        open = undefined;
      } else open.body += `${text}\n`;
      return;
    }
    if (text.startsWith('```')) {
      open = { file, line: i + 1, info: text.slice(3).trim(), body: '', needs: marker?.needs ?? [] };
      marker = undefined;
      return;
    }
    if (marker && text.trim() !== '')
      throw new Error(`${file}:${marker.line}: a doc-test marker not before a fence`);
    const m = MARKER.exec(text.trim());
    if (m) marker = { line: i + 1, needs: (m[1] as string).split(',').map((s) => s.trim()) };
    else if (text.trim().startsWith('<!--') && text.includes('doc-test'))
      throw new Error(`${file}:${i + 1}: a doc-test marker not in the form ${MARKER}`);
  });
  if (open) throw new Error(`${file}:${open.line}: a fence that is never closed`);
  return out;
}

const ALL = pages().flatMap(blocks);
const COMMANDS = ALL.filter((b) => FENCES[b.info] === 'run');

/** A cron block's commands: each line that is not a comment, after its schedule. */
function cronCommands(body: string): string[] {
  return body
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
    .map((l) => l.trim().replace(/^(@\w+|(\S+\s+){5})/, ''));
}

/** Shell words, quotes removed, up to a comment; `|`, `;`, `&&`, `||`, `&`, `(` end a command. */
function words(line: string): string[][] {
  const cmds: string[][] = [[]];
  const re = /\s*(?:(#.*)|(\|\||&&|[|;&()]|\$\()|((?:'[^']*'|"(?:\\.|[^"])*"|\\.|[^\s|;&()'"#])+))/gy;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m[1] !== undefined) break;
    if (m[2] !== undefined) cmds.push([]);
    else if (m[3] !== undefined) cmds[cmds.length - 1]?.push(m[3].replace(/^(['"])(.*)\1$/s, '$2'));
    if (re.lastIndex >= line.length) break;
  }
  return cmds.filter((c) => c.length > 0);
}

/** Each `posdata …` (or `tap-posdata …`) in a command block: its words after the program. */
function invocations(block: Block): { line: string; args: string[] }[] {
  const text = block.info === 'cron' ? cronCommands(block.body).join('\n') : block.body.replace(/\\\n/g, ' ');
  const out: { line: string; args: string[] }[] = [];
  for (const line of text.split('\n')) {
    for (let cmd of words(line)) {
      while (cmd[0] !== undefined && /^[A-Z_]+=/.test(cmd[0])) cmd = cmd.slice(1);
      if (cmd[0] === 'posdata') out.push({ line, args: cmd.slice(1) });
      if (cmd[0] === 'tap-posdata') out.push({ line, args: ['tap', ...cmd.slice(1)] });
    }
  }
  return out;
}

interface Declared {
  name: string;
  flags: { spec: string }[];
}

describe('the fenced blocks of README.md and docs/', () => {
  it('each has a known info string, and each marker a known reason', () => {
    expect(ALL.length).toBeGreaterThan(20);
    for (const b of ALL) {
      expect(Object.keys(FENCES), `${b.file}:${b.line}: fence info '${b.info}'`).toContain(b.info);
      for (const n of b.needs) expect(Object.keys(NEEDS), `${b.file}:${b.line}: needs ${n}`).toContain(n);
      if (b.needs.length > 0)
        expect(FENCES[b.info], `${b.file}:${b.line}: a marker on a block that is not run`).toBe('run');
    }
  });

  it("every posdata command in them names a command and that command's flags", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/completion.json'), 'utf8')) as Declared[];
    const byName = new Map(manifest.map((c) => [c.name, c]));
    const longs = (c: Declared) =>
      new Set(c.flags.flatMap((f) => f.spec.split(/[ ,]+/).filter((w) => w.startsWith('-'))));
    const anyFlags = new Set(['--help', '-h', '--version', '-V']);
    let seen = 0;
    for (const b of COMMANDS) {
      for (const { line, args } of invocations(b)) {
        seen++;
        const cmd = args.find((a) => byName.has(a));
        const declared = byName.get(cmd ?? '');
        if (declared === undefined)
          expect(
            args.every((a) => anyFlags.has(a)),
            `${b.file}:${b.line}: no command in: ${line}`,
          ).toBe(true);
        const flags = declared ? longs(declared) : anyFlags;
        for (const a of args) {
          if (!a.startsWith('-') || a === '-') continue;
          const flag = a.split('=')[0] as string;
          expect(
            flags.has(flag) || anyFlags.has(flag),
            `${b.file}:${b.line}: ${flag} of posdata ${cmd}`,
          ).toBe(true);
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
  });
});

describe('the runnable command blocks, against a sandbox', () => {
  let sandbox: SandboxHandle;
  const env: Record<string, string> = {};
  const home = mkdtempSync(join(process.env.POSDATA_TEST_TMP ?? tmpdir(), 'posdata-docs-'));

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 1 });
    Object.assign(env, shellEnv(home));
    const login = await runCli(
      ['login', '--url', sandbox.url, '--db', sandbox.db, '--user', 'admin', '--password-stdin'],
      { env, input: 'admin' },
    );
    expect(login.code, login.stderr).toBe(0);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const runnable = COMMANDS.filter((b) => b.needs.length === 0);
  it('there are some, in README.md and in docs/', () => {
    expect(runnable.some((b) => b.file === 'README.md')).toBe(true);
    expect(runnable.filter((b) => b.file.startsWith('docs/')).length).toBeGreaterThanOrEqual(5);
  });

  for (const b of runnable) {
    it(`${b.file}:${b.line} runs`, async () => {
      const cwd = mkdtempSync(join(home, 'run-'));
      const scripts = b.info === 'cron' ? cronCommands(b.body) : [b.body];
      for (const script of scripts) {
        // Not spawnSync: the sandbox answers from this process.
        const r = await bash(script, cwd, env);
        expect(
          r.status,
          `${b.file}:${b.line}\n${script}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr}`,
        ).toBe(0);
      }
    }, 300_000); // a block is several runs, each a process and its requests, on a shared machine
  }
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as '-'. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const s = slug(m[1] as string);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

describe('links', () => {
  it('every relative link of README.md and docs/ names a file that exists, and a heading in it', () => {
    let checked = 0;
    for (const page of pages()) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        const [path, hash] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), path);
        expect(existsSync(file), `${page}: link to ${target}`).toBe(true);
        if (hash !== undefined) expect([...anchors(file)], `${page}: link to ${target}`).toContain(hash);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('README.md is a front door: under 300 lines, linking the pages and docs/ itself', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(300);
    expect(readme).toContain('](docs/)');
    expect(readme.match(/\]\(docs\/\w[^)]*\.md/g)?.length).toBeGreaterThanOrEqual(10);
  });

  it('no issue numbers in README.md and docs/', () => {
    for (const page of pages()) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      expect(text, page).not.toMatch(/\bissues? \d+|#\d{2,}\b/i);
    }
  });
});
