// Temporary files still being written, so that a signal handler can remove them
// synchronously. Kept apart from atomic.ts so the handler loads nothing heavy.
import { unlinkSync } from 'node:fs';

export const pendingTemps = new Set<string>();

/** Removes every temporary file still open; safe to call from an exit handler. */
export function removePendingTemps(): void {
  for (const p of pendingTemps) {
    try {
      unlinkSync(p);
    } catch {
      /* already gone */
    }
  }
  pendingTemps.clear();
}
