// What an interrupt must undo: open connections (their sockets are dropped at once) and the
// clean-ups commands register (a sink's abort). One instance per process: the signal handler
// in the start-up bundle and the commands in theirs share this module (scripts/bundle.mjs).
export interface Destroyable {
  destroy(): void;
}

export const liveClients = new Set<Destroyable>();

export function destroyAll(): void {
  for (const c of liveClients) c.destroy();
  liveClients.clear();
}

const cleanups = new Set<() => Promise<void> | void>();

/** Runs `fn` if the process is interrupted; call the returned function once it is not needed. */
export function onInterrupt(fn: () => Promise<void> | void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Starts every registered clean-up (best effort, not awaited: the process is exiting). */
export function runCleanups(): void {
  for (const c of cleanups) {
    try {
      void c();
    } catch {
      /* best effort */
    }
  }
}
