// What a posdata process loads, for the tests that hold its start-up to what it needs
// (test/cli/lazy.test.ts, test/cli/single-start.test.ts): Node's module hooks append every file
// the process loads to the file named by POSDATA_LOADED; each bundle chunk's source map names
// the modules of src/ and the packages inside it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');

/** A fresh folder with the hooks; `register` is what `node --import` takes to record the loads. */
export function loadHooks(prefix: string): { dir: string; register: string } {
  const dir = mkdtempSync(join(process.env.POSDATA_TEST_TMP ?? tmpdir(), prefix));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.POSDATA_LOADED, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
  return { dir, register };
}

/** A file as the module it is: `src/…` of posdata, or `node_modules/NAME` of a package. */
function moduleOf(file: string): string {
  return relative(root, file).replace(/^.*node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, 'node_modules/$1');
}

/** The modules a log of loaded URLs names: src/ modules and packages, from the files and their maps. */
export function modulesOf(urls: string[]): Set<string> {
  const modules = new Set<string>();
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    if (!file.startsWith(`${dist}/`)) {
      modules.add(moduleOf(file));
      continue;
    }
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const s of map.sources) modules.add(moduleOf(resolve(dirname(file), s)));
  }
  return modules;
}
