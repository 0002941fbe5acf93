// Bundles the CLI's start-up path (bin → main.js with commander and the small modules it
// imports statically) into one file, dist/cli/main.bundle.js. Every module the ESM loader
// resolves costs start-up time, and `posdata --help` is measured against bare node.
//
// Not bundled, loaded from the tsc build beside it: each command's implementation (dynamic
// imports, only when a command runs), and every module that holds process-wide state or
// classes that must be one and the same for the whole process: the error classes
// (instanceof decides the exit code), the redactor (the secret it must mask), and the
// registries of live connections and temporary files that the signal handler clears.
import { dirname, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const SHARED = /\/(core\/errors|core\/redact|cli\/live|sink\/pending)\.js$/;

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli/main.bundle.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Less to parse at every start; names kept, error classes are told apart by name too.
  minify: true,
  keepNames: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'lazy-and-shared-stay-outside',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => {
          if (args.kind !== 'dynamic-import' && !SHARED.test(resolve(args.resolveDir, args.path)))
            return undefined;
          // The bundle sits in dist/cli/, as src/cli/ files do in the tsc build: their
          // relative paths stay right only for importers in src/cli/.
          if (relative('src/cli', args.resolveDir) !== '') {
            throw new Error(
              `${args.importer}: only src/cli/ may import ${args.path} lazily or as shared state`,
            );
          }
          return { path: args.path, external: true };
        });
      },
    },
  ],
  // commander is CommonJS: esbuild's wrapper needs require() inside the ESM bundle.
  banner: {
    js: "import { createRequire as __posdataRequire } from 'node:module'; const require = __posdataRequire(import.meta.url);",
  },
});
