#!/usr/bin/env node
// `tap-posdata`: `posdata tap` under the name a Singer tap goes by, for an orchestrator that
// runs a tap as one executable (Meltano's `executable: tap-posdata`).

// SIGUSR1 would open Node's inspector on 127.0.0.1:9229: a debugger any local account can
// attach to, in a process that may hold secrets (serve holds every logged-in user's). A log
// rotation that sends USR1 "to reopen logs" is enough. posdata has no use for it: from the
// first line on the signal is taken and ignored (a listener replaces Node's, on 20 and 24).
process.on('SIGUSR1', () => {});
const argv = process.argv.slice(2);
if (argv.includes('--debug')) process.setSourceMapsEnabled(true);
const { main } = await import('../dist/main.js');
await main(['tap', ...argv]);
