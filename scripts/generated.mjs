// What the build makes from the commands' declarations, after the bundle (`npm run build`):
// the man pages (man/posdata.1, man/posdata-COMMAND.1; src/cli/manpage.ts), the same source as
// --help, which package.json's `man` lists so that `npm install -g` links them; and the table
// of flags that shell completion reads at each Tab (dist/completion.json; src/cli/completion.ts),
// so that a Tab loads no command module; and what `posdata --help` and `posdata NAME --help` print
// where standard output is not a terminal (dist/help.json; src/cli/prebuilt-help.ts), rendered
// by the program itself, so that bin/posdata.js writes it without loading the program.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const { COMMANDS, run } = await import('../dist/main.js');
const { manPages, completionTable, loadListed, helpTexts } = await import('../dist/generated.js');
const { VERSION } = await import('../dist/version.js');

const commands = await Promise.all(COMMANDS.map(loadListed));
rmSync('man', { recursive: true, force: true });
mkdirSync('man');
for (const page of manPages(commands, VERSION)) writeFileSync(`man/${page.file}`, page.text);
writeFileSync('dist/completion.json', JSON.stringify(completionTable(commands)));
const names = COMMANDS.map((e) => e.name);
writeFileSync('dist/help.json', JSON.stringify(await helpTexts(run, names)));
