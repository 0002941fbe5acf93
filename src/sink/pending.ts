// Temporary files still being written, so that a signal handler can remove them
// synchronously. Kept apart from atomic.ts so the handler loads nothing heavy.
import { unlinkSync } from 'node:fs';

/**
 * Each temporary file with, for the one an export writes (-o), whether its target existed
 * when the export began: an interrupt then says whether that file was left as it was or
 * none was written. Checkpoints and other staged files have no `existed`.
 */
export const pendingTemps = new Map<string, { existed?: boolean }>();

/** What an interrupt did to the -o file: left as it was, or none written; undefined without one. */
export function outputFate(): 'kept' | 'none' | undefined {
  const outputs = [...pendingTemps.values()].filter((p) => p.existed !== undefined);
  if (outputs.length === 0) return undefined;
  return outputs.some((p) => p.existed) ? 'kept' : 'none';
}

/** Removes every temporary file still open; safe to call from an exit handler. */
export function removePendingTemps(): void {
  for (const p of pendingTemps.keys()) {
    try {
      unlinkSync(p);
    } catch {
      /* already gone */
    }
  }
  pendingTemps.clear();
}
