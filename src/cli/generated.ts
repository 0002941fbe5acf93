// What the build's second step (scripts/generated.mjs) makes from the commands' declarations:
// the man pages, completion's table of flags, and the help texts written before the program
// loads. Its own build entry (dist/generated.js).
import { type Env, type IO, testIO } from './io.js';

export { loadListed } from './command.js';
export { completionTable } from './completion.js';
export { manPages } from './manpage.js';

/**
 * What `posdata --help` and `posdata NAME --help` print where standard output is not a terminal
 * (no colour, 80 columns), each rendered by the program itself through `run` (src/main.ts):
 * dist/help.json, which bin/posdata.js writes without loading the program
 * (src/cli/prebuilt-help.ts). Keyed by the command's name, '' for posdata's own help.
 */
export async function helpTexts(
  run: (argv: readonly string[], io: IO, env: Env) => Promise<number>,
  names: readonly string[],
): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const name of ['', ...names]) {
    const io = testIO();
    const code = await run(name === '' ? ['--help'] : [name, '--help'], io, {});
    if (code !== 0) throw new Error(`posdata ${name} --help ended with exit ${code}: ${io.stderr()}`);
    texts[name] = io.stdout();
  }
  return texts;
}
