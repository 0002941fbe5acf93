// The man pages, from what --help is made of: the commands' summaries, arguments, flag
// declarations (flags.ts, grouped as the help groups them), examples and notes, and the
// program's examples and exit codes (program.ts). `npm run build` writes them to man/
// (scripts/generated.mjs): posdata(1) for the program and its commands, posdata-COMMAND(1) for each
// command, as git and gh split theirs. roff is written directly: the source is data, not prose.
import { COMMAND_GROUP_HEADINGS, type Listed } from './command.js';
import { type Flag, GROUP_HEADINGS, type GroupName, HELP_FLAG, takesValue } from './flags.js';
import { DESCRIPTION, EXIT_CODE_LIST, ROOT_EXAMPLES } from './program.js';

export interface ManPage {
  /** The file name: posdata.1, posdata-sales.1. */
  file: string;
  text: string;
}

/**
 * Text as roff reads it literally: backslashes, hyphens, a leading dot or quote, and any
 * character beyond ASCII as its named glyph (\[u2026] for an ellipsis), which groff reads whatever the locale.
 */
function esc(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(
      /[\u0080-\u{10ffff}]/gu,
      (c) => `\\[u${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

/** The title line; no hyphenation and a ragged right edge, so that flags stay whole words. */
function header(name: string, version: string): string {
  return `.TH ${name.toUpperCase()} 1 "" "posdata ${version}" "posdata manual"\n.nh\n.ad l\n`;
}

/** A flag's names bold and its value italic: `\fB\-o\fR, \fB\-\-output\fR \fIfile\fR`. */
function flagTerm(f: Flag): string {
  const value = /[<[]([^>\]]+)[>\]]/.exec(f.spec)?.[1];
  const names = f.spec
    .replace(/\s*[<[].*$/, '')
    .split(/,\s*/)
    .map((n) => `\\fB${esc(n.trim())}\\fR`)
    .join(', ');
  return value && takesValue(f) ? `${names} \\fI${esc(value)}\\fR` : names;
}

/** As commander's help says them: the choices, the default. */
function flagText(f: Flag): string {
  const extra: string[] = [];
  if (f.choices) extra.push(`choices: ${f.choices.join(', ')}`);
  if (f.default !== undefined && f.default !== false) extra.push(`default: ${String(f.default)}`);
  return esc(extra.length > 0 ? `${f.description} (${extra.join('; ')})` : f.description);
}

function section(title: string): string {
  return `.SH ${title.toUpperCase()}\n`;
}

function examplesBlock(lines: readonly string[]): string {
  return `${section('Examples')}.RS 4\n.nf\n${lines.map((l) => `$ ${esc(l)}`).join('\n')}\n.fi\n.RE\n`;
}

function exitStatus(): string {
  return (
    section('Exit status') + EXIT_CODE_LIST.map(([code, what]) => `.TP\n.B ${code}\n${esc(what)}\n`).join('')
  );
}

/** Free text: paragraphs split at blank lines (or at the start of a line that follows a full stop). */
function prose(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `.PP\n${esc(p.replace(/\s*\n\s*/g, ' '))}\n`)
    .join('');
}

function commandPage(c: Listed, version: string): ManPage {
  const name = `posdata-${c.name}`;
  const args = (c.args ?? []).map((a) => a.spec).join(' ');
  let text = header(name, version);
  text += `${section('Name')}${name} \\- ${esc(c.summary)}\n`;
  text += `${section('Synopsis')}.B posdata ${esc(c.name)}\n${c.flags.length > 0 ? '[\\fIoptions\\fR]' : ''}${args ? ` ${esc(args)}` : ''}\n`;
  text += `${section('Description')}.PP\n${esc(c.summary)}.\n`;
  if (c.notes) text += prose(c.notes);
  if ((c.args ?? []).length > 0) {
    text += section('Arguments');
    for (const a of c.args ?? [])
      text += `.TP\n.I ${esc(a.spec.replace(/[<>[\]]/g, ''))}\n${esc(a.description)}\n`;
  }
  // The groups in the order the help shows them; a group a command takes twice is one section.
  const groups = new Map<GroupName, Flag[]>();
  for (const g of c.flags) groups.set(g.name, [...(groups.get(g.name) ?? []), ...g.flags]);
  groups.set('global', [...(groups.get('global') ?? []), HELP_FLAG]);
  for (const [g, flags] of groups) {
    text += section(GROUP_HEADINGS[g].replace(/:$/, ''));
    for (const f of flags) text += `.TP\n${flagTerm(f)}\n${flagText(f)}\n`;
  }
  if (c.examples.length > 0) text += examplesBlock(c.examples);
  text += exitStatus();
  text += `${section('See also')}.BR posdata (1)\n`;
  return { file: `${name}.1`, text };
}

const ENVIRONMENT: [string, string][] = [
  ['POSDATA_PROFILE', 'the profile to use, where --profile is not given'],
  ['POSDATA_URL, POSDATA_DB, POSDATA_USER', 'the server, database and login, over the profile'],
  ['POSDATA_PASSWORD', 'the password or API key, over the stored one'],
  ['POSDATA_CONFIG_DIR', 'the folder of the profile store (default ~/.config/posdata)'],
  ['NO_COLOR', 'no colour in tables and messages'],
];

function programPage(commands: readonly Listed[], version: string): ManPage {
  let text = header('posdata', version);
  text += `${section('Name')}posdata \\- ${esc(DESCRIPTION.replace(/\.$/, ''))}\n`;
  text += `${section('Synopsis')}.B posdata\n\\fIcommand\\fR [\\fIoptions\\fR]\n.br\n.B posdata\n\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR\n`;
  text += `${section('Description')}.PP\n${esc(DESCRIPTION)}\n.PP\n${esc('Each command has its own page, and its help: posdata COMMAND --help.')}\n`;
  text += section('Commands');
  // In the groups of `posdata --help`, in its order.
  for (const [group, heading] of Object.entries(COMMAND_GROUP_HEADINGS)) {
    const members = commands.filter((c) => c.group === group);
    if (members.length === 0) continue;
    text += `.SS ${esc(heading.replace(/:$/, ''))}\n`;
    for (const c of members) text += `.TP\n.BR posdata\\-${esc(c.name)} (1)\n${esc(c.summary)}\n`;
  }
  text += section('Options');
  text += `.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow the help (of a command: posdata COMMAND \\-\\-help)\n`;
  text += `.TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\n${esc('the version on the first line, then Node.js, the platform and the protocols')}\n`;
  text += examplesBlock(ROOT_EXAMPLES);
  const completion = commands.find((c) => c.name === 'completion');
  if (completion) {
    text += `${section('Shell completion')}.PP\n${esc(`${completion.summary}; install it once:`)}\n`;
    text += `.RS 4\n.nf\n${completion.examples.map((l) => `$ ${esc(l)}`).join('\n')}\n.fi\n.RE\n`;
  }
  text += section('Environment');
  for (const [k, v] of ENVIRONMENT) text += `.TP\n.B ${esc(k)}\n${esc(v)}\n`;
  text += section('Files');
  text += `.TP\n.I ~/.config/posdata/config.json\n${esc('the profile store (mode 0600 in a 0700 folder)')}\n`;
  text += `.TP\n.I ~/.config/posdata/completion.json\n${esc('what shell completion offers of a server: field names and registers seen by earlier runs (logout --remove of the last profile on that server and database takes its entry out)')}\n`;
  text += `.TP\n.I ~/.config/posdata/fields.*.json\n${esc("a server's fields as earlier runs had them, per database, user and Odoo context: an export asks its first pages from them while the server answers again (logout --remove of the last profile with that server, database and user deletes them)")}\n`;
  text += exitStatus();
  text += `${section('See also')}${commands.map((c) => `.BR posdata\\-${esc(c.name)} (1)`).join(',\n')}\n`;
  return { file: 'posdata.1', text };
}

/** Every man page: posdata(1), then one per command. */
export function manPages(commands: readonly Listed[], version: string): ManPage[] {
  return [programPage(commands, version), ...commands.map((c) => commandPage(c, version))];
}
