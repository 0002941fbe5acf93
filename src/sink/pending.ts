// Temporary files still being written, so that a signal handler can remove them
// synchronously. Kept apart from atomic.ts so the handler loads nothing heavy.
import { rmSync, unlinkSync } from 'node:fs';

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

/** Temporary folders of a run (a chain's servers' outputs), removed with the files. */
export const pendingFolders = new Set<string>();

/** Removes every temporary file still open; safe to call from an exit handler. */
export function removePendingTemps(): void {
  for (const dir of pendingFolders) rmSync(dir, { recursive: true, force: true });
  pendingFolders.clear();
  for (const p of pendingTemps.keys()) {
    try {
      unlinkSync(p);
    } catch {
      /* already gone */
    }
  }
  pendingTemps.clear();
}
