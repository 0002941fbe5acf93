// `posdata COMMAND --help` and `posdata --help` where standard output is not a terminal (a pipe,
// a file, `| less`): the text the build rendered through the program itself (dist/help.json,
// written by scripts/generated.mjs with helpTexts), the same bytes the program prints there
// (test/cli/prebuilt-help.test.ts), written before commander or any command module is loaded,
// as oclif answers help from the manifest its build writes. Where the help depends on more
// than the command line it is rendered live, as before: on a terminal (its width, its colours)
// and with FORCE_COLOR. Its own build entry (dist/help.js), which bin/posdata.js loads for
// these command lines only.
import { readFileSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { wantsColour } from './colour.js';
import type { Env } from './io.js';

/** The command whose help the command line asks for ('' for posdata's own), else undefined. */
export function helpAsked(argv: readonly string[]): string | undefined {
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return undefined;
  if (argv.length === 1) return '';
  const name = argv[0];
  return argv.length === 2 && name !== undefined && /^[a-z][a-z-]*$/.test(name) ? name : undefined;
}

/**
 * Writes the prebuilt help to `fd` where it applies, and says whether it did; false leaves the
 * command line to the program: a terminal, colour asked for, a name the build did not render
 * (the program says what is wrong with it), a write refused (the program writes the help
 * again through its own output and says why it cannot).
 */
export function printPrebuiltHelp(
  argv: readonly string[],
  env: Env = process.env,
  fd = 1,
  texts: URL = new URL('./help.json', import.meta.url),
): boolean {
  const name = helpAsked(argv);
  if (name === undefined || isatty(fd) || wantsColour(env, false)) return false;
  let all: Record<string, string>;
  try {
    all = JSON.parse(readFileSync(texts, 'utf8')) as Record<string, string>;
  } catch {
    return false;
  }
  const text = Object.hasOwn(all, name) ? all[name] : undefined;
  if (text === undefined) return false;
  const bytes = Buffer.from(text, 'utf8');
  try {
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
  } catch (err) {
    // A reader that went away (`| head -1`) ends the run quietly, as the program's output does.
    return (err as NodeJS.ErrnoException).code === 'EPIPE';
  }
  return true;
}
