// SIGINT and SIGTERM: abort what is being written (the old -o file stays, no temp file is
// left), drop the sockets, say so in one line, exit 130.
import { outputFate, removePendingTemps } from '../sink/pending.js';
import { destroyAll, runCleanups } from './live.js';

let installed = false;

export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  const handler = (signal: NodeJS.Signals) => {
    // Only a run that was writing an -o file has one to speak of: the one it replaces
    // stays as it was, or, where there was none, none is written.
    const fate = outputFate();
    removePendingTemps();
    destroyAll();
    runCleanups();
    const said =
      fate === 'kept'
        ? '; the -o file was left as it was'
        : fate === 'none'
          ? '; no -o file was written'
          : '';
    // On a terminal the line starts clean: over a progress line and the echoed ^C.
    const clear = process.stderr.isTTY ? '\r\x1b[K' : '';
    process.stderr.write(`${clear}posdata: interrupted by ${signal}${said}\n`);
    process.exit(130);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
