// Text from Odoo shown to a person: control characters in a name (an ANSI escape that
// clears the screen or sets the window title, a bell, a newline that breaks a table row,
// a right-to-left override that reverses what follows) are shown escaped, as `\x1b`,
// `\n`, `\u202e`, never sent to the terminal, and a name is cut to a length a person reads.
// Only what a person reads uses it: csv and json carry the bytes Odoo sent, whole.

const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
}

/** `s` with its control characters escaped; the same string when it has none. */
export function visible(s: string): string {
  return s.replace(CONTROL, escaped);
}

/**
 * The most characters of a name from Odoo in a table a person reads (a list's column, a
 * summary's, reconcile's or books' cell): a longer one is cut with `…`. Machine formats
 * (json, ndjson, csv) carry names whole.
 */
export const NAME_CHARS = 40;

/** `s` cut to `width` characters, ending in `…` where it was cut. */
export function truncate(s: string, width: number): string {
  if (s.length <= width) return s;
  // A product's display name leads with its internal reference ("[FURN_0007] Drawer Unit"):
  // cut short, a person would see the code alone, so the name goes first.
  const coded = /^\[[^\]]*\]\s+(.+)$/.exec(s);
  const t = coded ? (coded[1] as string) : s;
  return t.length <= width ? t : `${t.slice(0, Math.max(1, width - 1))}…`;
}
