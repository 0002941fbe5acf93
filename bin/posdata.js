#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built from src/ by `npm run build`).
// `--version` answers before anything else is loaded.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8's optimising tier for it
  // costs 20-35 MiB of peak memory on a long export and no measurable speed: keep the
  // baseline compiler. (Set before the module is compiled, at the first request.)
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  const { main } = await import('../dist/cli/main.js');
  await main(argv);
}
