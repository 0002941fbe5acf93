#!/usr/bin/env node
// `tap-posdata`: `posdata tap` under the name a Singer tap goes by, for an orchestrator that
// runs a tap as one executable (Meltano's `executable: tap-posdata`).
const argv = process.argv.slice(2);
if (argv.includes('--debug')) process.setSourceMapsEnabled(true);
const { main } = await import('../dist/main.js');
await main(['tap', ...argv]);
