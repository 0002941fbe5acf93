// Bundles what a command loads into one file each, beside the tsc build in dist/cli/:
// main.bundle.js (bin → main.js with commander and the small modules it imports statically)
// and list.bundle.js (the data commands: sales, lines, … with undici's agent and
// csv-stringify, all bundled). Every module the loaders resolve costs start-up time:
// `posdata --help` is measured against bare node, and an export against the download alone.
//
// Not bundled, loaded from the tsc build: the other commands (dynamic imports, only when a
// command runs), and every module that holds process-wide state or classes that must be one
// and the same for the whole process: the error classes (instanceof decides the exit code),
// the redactor (the secret it must mask), and the registries of live connections, temporary
// files and interrupt clean-ups that the signal handler clears.
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';

const SHARED = /\/(core\/errors|core\/redact|cli\/live|sink\/pending)\.js$/;
/** Commands bundled on their own: a dynamic import of one loads its bundle instead. */
const BUNDLED = { 'src/cli/list.js': './list.bundle.js' };

const outside = {
  name: 'lazy-and-shared-stay-outside',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      const bundled = BUNDLED[relative('.', target)];
      if (args.kind === 'dynamic-import' && bundled) return { path: bundled, external: true };
      if (args.kind !== 'dynamic-import' && !SHARED.test(target)) return undefined;
      // Bundles sit in dist/cli/, as src/cli/ files do in the tsc build.
      let path = relative(resolve('src/cli'), target);
      if (!path.startsWith('.')) path = `./${path}`;
      return { path, external: true };
    });
  },
};

/** A plugin that gives imports matching `filter` from files under `importer` a module of `contents`. */
function standIn(name, filter, importer, contents) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.importer.includes(importer) ? { path: name, namespace: name } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }));
    },
  };
}

// commander requires node:child_process (and with it net, dgram and the streams, ~4 ms
// here) only to run executable subcommands, which posdata has none of: it gets a stand-in
// that loads the real module on first use.
const lazyChildProcess = standIn(
  'lazy-child-process-for-commander',
  /^node:child_process$/,
  '/node_modules/commander/',
  "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
);

// undici's client requires its HTTP/2 connector (and node:http2, ~8 ms) at load time; it is
// only called when a server negotiates h2 over TLS, which posdata's Agent never offers
// (allowH2 is off). It gets a stand-in that says so if it is ever called: the real one,
// loaded apart, would not share the bundled client's private symbols.
const lazyHttp2 = standIn(
  'lazy-http2-for-undici',
  /\/client-h2\.js$/,
  '/node_modules/undici/',
  "module.exports = function connectH2() { throw new Error('posdata does not speak HTTP/2 (undici allowH2 is off)'); };",
);

// Loaded from node_modules when needed, not parsed at every start: llhttp's build without
// SIMD (a 72 KB fallback for CPUs without it) and conf with its schema validator (~170 KB,
// only for writing the profile store: the data commands read it as plain JSON).
const onDemand = {
  name: 'on-demand-from-node-modules',
  setup(b) {
    b.onResolve({ filter: /\/llhttp-wasm\.js$/ }, (args) =>
      args.importer.includes('/node_modules/undici/')
        ? { path: 'undici/lib/llhttp/llhttp-wasm.js', external: true }
        : undefined,
    );
  },
};

for (const [entry, outfile] of [
  ['src/cli/main.ts', 'dist/cli/main.bundle.js'],
  ['src/cli/list.ts', 'dist/cli/list.bundle.js'],
]) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Less to parse at every start; names kept, error classes are told apart by name too.
    minify: true,
    keepNames: true,
    logLevel: 'warning',
    plugins: [outside, lazyChildProcess, lazyHttp2, onDemand],
    external: ['conf'],
    // commander and undici are CommonJS: esbuild's wrapper needs require() inside the ESM bundle.
    banner: {
      js: "import { createRequire as __posdataRequire } from 'node:module'; const require = __posdataRequire(import.meta.url);",
    },
  });
}
