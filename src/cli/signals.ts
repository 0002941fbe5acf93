// SIGINT and SIGTERM: abort what is being written (the old -o file stays, no temp file is
// left), drop the sockets, say so in one line, exit 130.
import { pendingTemps, removePendingTemps } from '../sink/pending.js';
import { destroyAll, runCleanups } from './live.js';

let installed = false;

export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  const handler = (signal: NodeJS.Signals) => {
    // Only a run that was writing an -o file has one to speak of.
    const writing = pendingTemps.size > 0;
    removePendingTemps();
    destroyAll();
    runCleanups();
    process.stderr.write(
      `posdata: interrupted by ${signal}${writing ? '; the -o file was left as it was' : ''}\n`,
    );
    process.exit(130);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
