#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built from src/ by `npm run build`).
// `--version` answers before anything else is loaded (dist/version.js alone), and so does a
// command's --help on a pipe or into a file (dist/help.js, with the text the build rendered). With --debug,
// whose stacks are the point, stack traces name the lines of src/ (dist/ ships its source maps).

// SIGUSR1 would open Node's inspector on 127.0.0.1:9229: a debugger any local account can
// attach to, in a process that may hold secrets (serve holds every logged-in user's). A log
// rotation that sends USR1 "to reopen logs" is enough. posdata has no use for it: from the
// first line on the signal is taken and ignored (a listener replaces Node's, on 20 and 24).
process.on('SIGUSR1', () => {});
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { versionText } = await import('../dist/version.js');
  process.stdout.write(`${versionText()}\n`);
} else if (
  // `posdata NAME --help` on a pipe or into a file: the text the build rendered (dist/help.js).
  argv.length <= 2 &&
  (argv.at(-1) === '--help' || argv.at(-1) === '-h') &&
  (await import('../dist/help.js')).printPrebuiltHelp(argv)
) {
  // Written; nothing else to do.
} else {
  if (argv.includes('--debug')) process.setSourceMapsEnabled(true);
  const { main } = await import('../dist/main.js');
  await main(argv);
}
