// The man pages (man/posdata.1, man/posdata-COMMAND.1), written by `npm run build` after the
// bundle, from the built commands' declarations: the same source as --help (src/cli/manpage.ts).
// package.json's `man` lists them, so `npm install -g` links them where man finds them.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const { COMMANDS } = await import('../dist/main.js');
const { manPages } = await import('../dist/manpage.js');
const { VERSION } = await import('../dist/version.js');

const commands = await Promise.all(COMMANDS.map((e) => e.load()));
rmSync('man', { recursive: true, force: true });
mkdirSync('man');
for (const page of manPages(commands, VERSION)) writeFileSync(`man/${page.file}`, page.text);
