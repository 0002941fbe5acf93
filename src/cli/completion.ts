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
import { escapeControls } from '../core/redact.js';
import { ProfileStore, targetOf } from '../store/profiles.js';
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

/**
 * posdata's bash script. tab's own passes every candidate through `compgen -W`, which expands
 * `$(…)` and backticks in it, and `eval`s the typed words: a field name a server sent would
 * run at a Tab. This one gives the typed words to `posdata complete` as arguments and builds
 * COMPREPLY from its lines as data, matched against the word being completed with no
 * expansion; the directive is read only where it is a number. With `-o default`, bash lists
 * files where posdata offers no value and did not ask for no files (-o, --checkpoint).
 */
const BASH_SCRIPT = `# bash completion for posdata (posdata completion bash)
# What posdata offers reaches the shell as data: no eval, no compgen -W.
__posdata_complete() {
    local cur prev words cword
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref -n "=:" cur prev words cword
    else
        words=("\${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=\${COMP_WORDS[COMP_CWORD]}
    fi
    local out directive line value
    out=$(posdata complete -- "\${words[@]:1:cword-1}" "$cur" 2>/dev/null) || return
    directive=\${out##*$'\\n'}
    if [[ $out == *$'\\n'* ]]; then out=\${out%$'\\n'*}; else out=''; fi
    directive=\${directive#:}
    [[ $directive =~ ^[0-9]+$ ]] || directive=0
    (( directive & 1 )) && return
    (( directive & 2 )) && compopt -o nospace 2>/dev/null
    (( directive & 4 )) && compopt +o default 2>/dev/null
    (( directive & 32 )) && compopt -o nosort 2>/dev/null
    # --flag=value is one word here: the values come without the flag, the reply with it.
    local flag=''
    [[ $cur == -*=* ]] && flag=\${cur%%=*}=
    COMPREPLY=()
    while IFS= read -r line; do
        value=\${line%%$'\\t'*}
        [[ -n $value && $flag$value == "$cur"* ]] && COMPREPLY+=("$flag$value")
    done <<< "$out"
    return 0
}

complete -o default -F __posdata_complete posdata
`;

/**
 * posdata's zsh script, for the same reasons: tab's `eval`s a command line built from the
 * typed words (and _describe's arguments), and has zsh insert candidates unquoted (-Q). This
 * one calls `posdata complete` with the words as arguments and hands the lines to _describe
 * as data, which zsh quotes where it inserts them.
 */
const ZSH_SCRIPT = `#compdef posdata
compdef _posdata posdata

# zsh completion for posdata (posdata completion zsh)
# What posdata offers reaches the shell as data: no eval, candidates inserted quoted.
_posdata() {
    local out directive line value desc
    local -a lines completions opts
    out=$(posdata complete -- "\${(@)words[2,CURRENT-1]}" "$IPREFIX$PREFIX" 2>/dev/null) || return 1
    lines=("\${(@f)out}")
    directive=\${lines[-1]#:}
    lines=("\${(@)lines[1,-2]}")
    [[ $directive == <-> ]] || directive=0
    (( directive & 1 )) && return 1
    for line in "\${lines[@]}"; do
        value=\${line%%$'\\t'*}
        [[ -z $value ]] && continue
        desc=''
        [[ $line == *$'\\t'* ]] && desc=\${line#*$'\\t'}
        completions+=("\${value//:/\\\\:}\${desc:+:$desc}")
    done
    [[ $PREFIX == -*=* ]] && compset -P '*='
    (( directive & 32 )) && opts+=(-V)
    if (( \${#completions} )); then
        if (( directive & 2 )); then
            _describe "\${opts[@]}" 'posdata' completions -S '' && return 0
        else
            _describe "\${opts[@]}" 'posdata' completions && return 0
        fi
    fi
    (( directive & 4 )) && return 0
    _files
}

if [ "\${funcstack[1]}" = "_posdata" ]; then
    _posdata "$@"
fi
`;

/** The script that makes `shell` complete posdata (what `posdata completion SHELL` prints). */
export function completionScript(shell: Shell): string {
  if (shell === 'bash') return BASH_SCRIPT;
  if (shell === 'zsh') return ZSH_SCRIPT;
  // tab's fish script passes the words as arguments and the candidates as a list: data.
  return capture(() => script(shell, 'posdata', 'posdata'));
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
    const { url, db } = targetOf(
      { url: flagValue(words, '--url'), db: flagValue(words, '--db') },
      env,
      profile,
    );
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

/**
 * Names from outside that Tab may offer: a server's field names (Odoo's are identifiers), a
 * register's id, a profile's name (letters, digits, `_.@+-`). Anything else (`$(…)`, a
 * backtick, a space, a quote, a control character) is never offered: a shell must not get to
 * expand it, nor the user to run it with the line.
 */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PROFILE_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.@+-]*$/u;

/** What Tab offers for a flag's value: its choices, the names it takes, what the server had. */
function offers(f: Flag, words: readonly string[], env: Env): Offer[] {
  const plain = (values: readonly unknown[], name: RegExp = /./) =>
    values
      .filter((v): v is string => typeof v === 'string' && name.test(v))
      .map((value) => ({ value, description: '' }));
  if (f.choices) return plain(f.choices);
  if (f.offer) return plain(f.offer);
  if (f.value === 'zone') return plain(zones());
  if (f.value === 'profile') return plain(profileNames(env), PROFILE_NAME);
  if (f.value === 'register')
    return (rememberedFor(words, env)?.registers ?? [])
      .filter(([id]) => Number.isSafeInteger(id) && id > 0)
      .map(([id, name]) => ({ value: String(id), description: typeof name === 'string' ? name : '' }));
  if (f.fieldsOf) {
    const fields = rememberedFor(words, env)?.fields[f.fieldsOf];
    return plain(Array.isArray(fields) ? fields : [], FIELD_NAME);
  }
  return [];
}

/**
 * A description as a shell shows it beside a value (zsh, fish): one line, its control
 * characters escaped (a register's name is the server's text). A tab or newline would
 * also break the lines `posdata complete` answers in.
 */
function described(text: string): string {
  return escapeControls(text).replace(/[\t\n]/g, ' ');
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
        for (const o of found) complete(o.value, described(o.description));
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
