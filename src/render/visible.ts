// Text from Odoo shown on a terminal: control characters in a name (an ANSI escape that
// clears the screen or sets the window title, a bell, a newline that breaks a table row,
// a right-to-left override that reverses what follows) are shown escaped, as `\x1b`,
// `\n`, `\u202e`, never sent to the terminal. Only tables use it: csv and json carry the
// bytes Odoo sent.

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
