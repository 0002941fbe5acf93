// SIGINT and SIGTERM: abort what is being written (the old -o file stays, no temp file is
// left), drop the sockets, say so in one line, exit 130.
import { removePendingTemps } from '../sink/pending.js';
import { destroyAll, runCleanups } from './live.js';

let installed = false;

export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  const handler = (signal: NodeJS.Signals) => {
    removePendingTemps();
    destroyAll();
    runCleanups();
    process.stderr.write(`posdata: interrupted by ${signal}; any -o file was left as it was\n`);
    process.exit(130);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
