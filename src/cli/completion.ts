// Shell completion. @bomb.sh/tab writes the scripts for bash, zsh, fish and PowerShell and
// reads the words a shell passes at each Tab (`posdata complete -- sales --for`); what it
// offers comes from the commands' flag declarations (flags.ts: names, descriptions, choices,
// what a value names), and for what lives on a server (registers, field names) from what
// earlier runs remembered (src/store/remembered.ts): a Tab never sends a request. The built CLI
// reads the declarations from a table the build wrote (dist/completion.json), so a Tab loads
// no command module.
import { readFileSync } from 'node:fs';
import { RootCommand, script, type Command as TabCommand } from '@bomb.sh/tab';
import { EXIT } from '../core/errors.js';
import { ProfileStore } from '../store/profiles.js';
import { remembered, serverKey } from '../store/remembered.js';
import { type Argument, type Entry, type Listed, loadListed } from './command.js';
import { type Flag, HELP_FLAG, longName, takesValue } from './flags.js';
import type { Env, IO } from './io.js';
import type { Shell } from './shells.js';

/** tab writes with console.log; what it writes is taken as text instead (it runs synchronously). */
function capture(fn: () => void): string {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => {
    lines.push(parts.map(String).join(' '));
  };
  try {
    fn();
  } finally {
    console.log = log;
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** The script that makes `shell` complete posdata (what `posdata completion SHELL` prints). */
export function completionScript(shell: Shell): string {
  const text = capture(() => script(shell, 'posdata', 'posdata'));
  // tab's bash script registers its function without `-o default`, so a flag that names a
  // file (-o, --checkpoint) would be offered nothing; with it, bash lists files where posdata
  // offers no value and did not ask for no files (the other flags: tab's NoFileComp).
  return shell === 'bash'
    ? text.replace(
        'complete -F __posdata_complete posdata',
        'complete -o default -F __posdata_complete posdata',
      )
    : text;
}

/** A flag's value, from the words so far: `--profile x` or `--profile=x`. */
function flagValue(words: readonly string[], name: string): string | undefined {
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i] as string;
    if (w === name && i + 1 < words.length) return words[i + 1];
    if (w.startsWith(`${name}=`)) return w.slice(name.length + 1);
  }
  return undefined;
}

/** What earlier runs remembered of the server these words (or the environment, or the profile) point at. */
function rememberedFor(words: readonly string[], env: Env) {
  try {
    const store = ProfileStore.read(env);
    const profile = store.get(store.currentName(flagValue(words, '--profile'), env)) ?? {};
    const url = flagValue(words, '--url') ?? env.POSDATA_URL ?? profile.url;
    const db = flagValue(words, '--db') ?? env.POSDATA_DB ?? profile.db;
    const key = url && db ? serverKey(url, db) : undefined;
    return key ? remembered(env, key) : undefined;
  } catch {
    return undefined;
  }
}

function profileNames(env: Env): string[] {
  try {
    return Object.keys(ProfileStore.read(env).list()).sort();
  } catch {
    return [];
  }
}

function zones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
}

interface Offer {
  value: string;
  description: string;
}

/** What Tab offers for a flag's value: its choices, the names it takes, what the server had. */
function offers(f: Flag, words: readonly string[], env: Env): Offer[] {
  const plain = (values: readonly string[]) => values.map((value) => ({ value, description: '' }));
  if (f.choices) return plain(f.choices);
  if (f.offer) return plain(f.offer);
  if (f.value === 'zone') return plain(zones());
  if (f.value === 'profile') return plain(profileNames(env));
  if (f.value === 'register')
    return (rememberedFor(words, env)?.registers ?? []).map(([id, name]) => ({
      value: String(id),
      description: name,
    }));
  if (f.fieldsOf) return plain(rememberedFor(words, env)?.fields[f.fieldsOf] ?? []);
  return [];
}

/** The word being completed, without its `--flag=`. */
function current(words: readonly string[]): string {
  const last = words[words.length - 1] ?? '';
  return last.startsWith('-') && last.includes('=') ? last.slice(last.indexOf('=') + 1) : last;
}

/** A tab command with the flags of a posdata command (or of the program). */
function addFlags(
  to: TabCommand,
  flags: readonly Flag[],
  words: readonly string[],
  env: Env,
  wantFiles: () => void,
): void {
  for (const f of flags) {
    const name = longName(f).replace(/^-+/, '');
    const short = /^-([A-Za-z]),/.exec(f.spec)?.[1];
    if (!takesValue(f)) {
      to.option(name, f.description, short);
      continue;
    }
    to.option(
      name,
      f.description,
      (complete) => {
        if (f.value === 'file') wantFiles();
        let found = offers(f, words, env);
        if (f.list) {
          // A comma-separated list: complete its last item, after those already given.
          const typed = current(words);
          const head = typed.slice(0, typed.lastIndexOf(',') + 1);
          const given = new Set(head.split(',').filter(Boolean));
          found = found.filter((o) => !given.has(o.value)).map((o) => ({ ...o, value: head + o.value }));
        }
        for (const o of found) complete(o.value, o.description);
      },
      short,
    );
  }
}

const PROGRAM_FLAGS: Flag[] = [
  HELP_FLAG,
  { spec: '-V, --version', description: 'show the version, with Node.js and the protocols' },
];

/** What completion needs of a command, as plain data (the build writes them all to dist/completion.json). */
export interface CompletionEntry {
  name: string;
  summary: string;
  args: readonly Argument[];
  flags: readonly Flag[];
}

/** The commands as completion reads them: their flags as declared, minus what only a run needs. */
export function completionTable(commands: readonly Listed[]): CompletionEntry[] {
  return commands.map((c) => ({
    name: c.name,
    summary: c.summary,
    args: c.args ?? [],
    flags: c.flags.flatMap((g) =>
      g.flags.map(({ spec, description, choices, offer, value, list, fieldsOf }) => ({
        spec,
        description,
        choices,
        offer,
        value,
        list,
        fieldsOf,
      })),
    ),
  }));
}

/**
 * The built table (dist/completion.json, beside dist/main.js; this module is a chunk in
 * dist/chunks/): a Tab then loads no command module at all (`summary`'s alone costs more than
 * the start-up budget). Absent when run from src/ (the tests): the commands are loaded instead.
 */
function builtTable(): CompletionEntry[] | undefined {
  try {
    return JSON.parse(
      readFileSync(new URL('../completion.json', import.meta.url), 'utf8'),
    ) as CompletionEntry[];
  } catch {
    return undefined;
  }
}

/** The entries for these words: the command already typed in full, else all (to complete a command's name). */
async function entriesFor(words: readonly string[], registry: readonly Entry[]): Promise<CompletionEntry[]> {
  const names = registry.map((e) => e.name);
  const named = words.slice(0, -1).find((w) => !w.startsWith('-'));
  const only = named !== undefined && names.includes(named) ? named : undefined;
  const table = builtTable();
  if (table) return table.filter((c) => only === undefined || c.name === only);
  const entries = registry.filter((e) => only === undefined || e.name === only);
  return completionTable(await Promise.all(entries.map(loadListed)));
}

/**
 * `posdata complete -- WORDS`: the values for the last of WORDS (empty: a new word), one per
 * line with its description after a tab, then tab's directive line (`:4`, no files; `:0` where
 * files are the value).
 */
export async function complete(
  argv: readonly string[],
  registry: readonly Entry[],
  io: IO,
  env: Env,
): Promise<number> {
  const words = argv[0] === '--' ? argv.slice(1) : [...argv];
  let commands: CompletionEntry[];
  try {
    commands = await entriesFor(words, registry);
  } catch {
    io.out.write(':1\n');
    return EXIT.ok;
  }
  let files = false;
  const wantFiles = () => {
    files = true;
  };
  const root = new RootCommand();
  addFlags(root, PROGRAM_FLAGS, words, env, wantFiles);
  for (const c of commands) {
    const sub = root.command(c.name, c.summary);
    addFlags(sub, [...c.flags, HELP_FLAG], words, env, wantFiles);
    for (const a of c.args) {
      const offer = a.offer;
      sub.argument(
        a.spec.replace(/[<>[\].]/g, ''),
        offer
          ? (done) => {
              for (const v of offer) done(v, '');
            }
          : undefined,
        a.spec.includes('...'),
      );
    }
  }
  let out = capture(() => root.parse([...words]));
  if (files) out = out.replace(/:4\n$/, ':0\n');
  io.out.write(out);
  return EXIT.ok;
}
