// A checkpointed run's window of write_dates as the user meets it before anything is read:
// how far --overlap may reach, and -o named by the window ({from}, {to}). The window itself
// is computed in checkpoint.ts (writeDateWindow).
import type { Domain } from '../core/types.js';

export interface Window {
  domain: Domain;
  windowEnd: string;
}

/** The longest --overlap taken (a century): longer is a mistake, and past year 1 no date. */
export const MAX_OVERLAP = 100 * 365.25 * 86400;

/** `{from}` or `{to}` in -o: the file is named by the run's window. */
export const WINDOW_NAME = /\{(from|to)\}/;

/** A window end as it goes in a file name: `20261125T185651Z` (UTC, sorts by time). */
function fileStamp(odooTime: string): string {
  return `${odooTime.replace(/[-:]/g, '').replace(' ', 'T')}Z`;
}

/**
 * -o with `{from}` and `{to}` filled in: `{to}` is the end of this run's window, `{from}` the
 * end of the one before (the checkpoint's, `previousEnd`), or the Unix epoch on a first or --full run (a
 * stamp like the others, so that the first file sorts first). Consecutive runs so name
 * consecutive files, each to where the next begins.
 */
export function windowFileName(template: string, previousEnd: string | undefined, window: Window): string {
  return template
    .replace(/\{from\}/g, fileStamp(previousEnd ?? '1970-01-01 00:00:00'))
    .replace(/\{to\}/g, fileStamp(window.windowEnd));
}
