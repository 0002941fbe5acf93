#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built from src/ by `npm run build`).
// `--version` answers before anything else is loaded (dist/version.js alone). With --debug,
// whose stacks are the point, stack traces name the lines of src/ (dist/ ships its source maps).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { versionText } = await import('../dist/version.js');
  process.stdout.write(`${versionText()}\n`);
} else {
  if (argv.includes('--debug')) process.setSourceMapsEnabled(true);
  const { main } = await import('../dist/main.js');
  await main(argv);
}
