// The docs' pipeline recipes (a posdata command piped into jq or duckdb) as a shell reads
// them: one command may span lines (a `\` or a pipe at a line's end, a heredoc's body), and
// a recipe written over three lines is found, run and compared as one written on one is.

const PIPED = /(?:^|\s)posdata\s[^|#]*\|\s*(?:jq|duckdb)\b/;

export interface Recipe {
  page: string;
  /** The line the command starts on. */
  line: number;
  /** The command as written (its line breaks kept): what bash runs. */
  text: string;
  /** The command on one line (continuations and a pipe's line break made a space): what a check matches. */
  flat: string;
}

/** Where the heredoc a line opens ends: its word (`<<EOF`, `<<-'SQL'`, `<< "END"`), or undefined. */
function heredocWord(line: string): string | undefined {
  return /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(line)?.[2];
}

/**
 * The page's commands, each with the lines a shell reads as one; only code (a fenced block, or
 * a block indented four spaces) continues a line: a table's row ends in a pipe too.
 */
export function commandsOf(text: string): { line: number; text: string }[] {
  const lines = text.split('\n');
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  const code = (l: string) => fenced || /^ {4}/.test(l);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    if (/^\s*```/.test(lines[i] as string)) fenced = !fenced;
    const parts = [lines[i] as string];
    while (code(lines[i] as string)) {
      const opener = (lines[i] as string).trimEnd();
      const word = heredocWord(opener);
      // A heredoc's body, through the line that ends it; the line that opened it may go on after.
      if (word !== undefined)
        while (i + 1 < lines.length && (lines[i] as string).trim() !== word) parts.push(lines[++i] as string);
      const continues = opener.endsWith('\\') || /(?:\||&&)$/.test(opener);
      if (!continues || i + 1 >= lines.length) break;
      parts.push(lines[++i] as string);
    }
    out.push({ line: start + 1, text: parts.join('\n').trim() });
  }
  return out;
}

/** A command on one line: a `\` and its line break, or a pipe's, read as the space bash reads. */
export function flat(command: string): string {
  return command.replace(/\s*\\\n\s*/g, ' ').replace(/(\||&&)\s*\n\s*/g, '$1 ');
}

/** Each pipeline recipe of the pages given (name and text). */
export function recipesOf(pages: { page: string; text: string }[]): Recipe[] {
  return pages.flatMap(({ page, text }) =>
    commandsOf(text).flatMap((c) => {
      const f = flat(c.text);
      return PIPED.test(f) ? [{ page, line: c.line, text: c.text, flat: f }] : [];
    }),
  );
}
