// SIGINT and SIGTERM for the process entry. A long-running command (sandbox, serve), or a
// run that said it runs until stopped (summary --watch), is told to stop and stops itself. Any other run is interrupted: what it was writing is aborted
// (the old -o file stays, no temporary file is left), its sockets dropped, one line said,
// exit 130.
import { outputFate, removePendingTemps } from '../sink/pending.js';
import type { RunContext } from './context.js';

export function installSignalHandlers(ctx: RunContext, longRunning: () => boolean): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if ((longRunning() || ctx.untilStopped) && !stopping) {
      // It stops itself (open streams cut, sockets closed); a second signal meanwhile does
      // not wait for that.
      stopping = true;
      ctx.stop(signal);
      return;
    }
    // Only a run that was writing an -o file has one to speak of: the one it replaces
    // stays as it was, or, where there was none, none is written.
    const fate = outputFate();
    removePendingTemps();
    ctx.interrupt();
    const said =
      fate === 'kept'
        ? '; the -o file was left as it was'
        : fate === 'none'
          ? '; no -o file was written'
          : '';
    // On a terminal the line starts clean: over a progress line and the echoed ^C.
    const clear = ctx.io.err.isTTY ? '\r\x1b[K' : '';
    ctx.io.err.write(`${clear}posdata: interrupted by ${signal}${said}\n`);
    process.exit(130);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
