#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built from src/ by `npm run build`).
// `--version` answers before anything else is loaded.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // One file for the start-up path (scripts/bundle.mjs); commands load their own modules.
  const { main } = await import('../dist/cli/main.bundle.js');
  await main(argv);
}
