// The build: src/ bundled by esbuild into dist/, one entry for the CLI (dist/main.js), one for
// what scripts/generated.mjs renders after it (dist/generated.js: the man pages and
// completion's table of flags) and one for the sandbox as a library (dist/sandbox/index.js:
// what `posdata/sandbox`, package.json's exports, resolves to outside the tests). Code
// splitting: each command's module, loaded when the command runs (src/main.ts), becomes a
// chunk of its own, and a module that two of them use is one shared chunk, so every module
// exists once in the process. Source maps ship beside them (bin/posdata.js turns them on for
// --debug, whose stacks they are for).
//
// Bundled with posdata's own code: the small, pure packages on the start-up path (commander,
// luxon, csv-stringify), where one file parses faster than many, and undici: loaded from
// node_modules it is 111 CommonJS files (fetch, WebSocket, caches, mocks besides the Agent
// posdata uses) resolved and read one by one at every run; bundled, one chunk (`sales --limit 1
// -o x.csv` against a sandbox, CPU (user+sys) mean of 20 runs: 197.5 ms loaded from
// node_modules, 170 ms bundled), and only the Agent's module and what it needs (src/core/http.ts:
// 300 KB instead of 559, 1.7 MB of heap instead of 4.8; 239 KB since its HTTP/2 client and
// fetch's body are left out, scripts/undici-left-out.cjs). Everything else is loaded from
// node_modules by its public entry (pg, fastify and its plugins, which serve files from their
// own folders, hyparquet-writer, cli-table3, conf).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BUNDLED = /^(commander|luxon|csv-stringify|undici)(\/|$)/;

const packagesOutside = {
  name: 'packages-outside-but-the-start-up-ones',
  setup(b) {
    // commander's child_process, loaded when first used (scripts/lazy-child-process.cjs).
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: fileURLToPath(new URL('./lazy-child-process.cjs', import.meta.url)) }
        : undefined,
    );
    // undici's HTTP/2 client and fetch's body, left out (scripts/undici-left-out.cjs).
    b.onResolve({ filter: /^(\.\/client-h2|\.\.\/web\/fetch\/body)\.js$/ }, (args) =>
      /node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client(-h1)?\.js$/.test(args.importer)
        ? { path: fileURLToPath(new URL('./undici-left-out.cjs', import.meta.url)) }
        : undefined,
    );
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || BUNDLED.test(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/main.ts',
    generated: 'src/cli/generated.ts',
    'sandbox/index': 'src/sandbox/index.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // The maps name the sources and their lines; their text is in the repository, not in the tarball
  // (copies of the source were about half of the packed 5.6 MB).
  sourcesContent: false,
  minify: true,
  // No keepNames: it wraps every function the bundle makes in a call that defines its name, a
  // defineProperty each time a closure is created (luxon's parser makes several a value; ~10-30 %
  // of a --tz export's CPU). The errors posdata prints name themselves (src/core/errors.ts).
  keepNames: false,
  logLevel: 'warning',
  plugins: [packagesOutside],
  // commander is CommonJS: esbuild's wrapper needs require() inside the ESM output.
  banner: {
    js: "import { createRequire as __posdataRequire } from 'node:module'; const require = __posdataRequire(import.meta.url);",
  },
});
// `posdata --version` alone, and the help written before the program loads (src/cli/prebuilt-help.ts):
// each one file of its own, no chunk (bin/posdata.js loads them before anything else, so
// --version and a help on a pipe cost one small module over bare Node).
await build({
  entryPoints: { version: 'src/cli/version.ts', help: 'src/cli/prebuilt-help.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
