// posdata on a real pseudo-terminal (util-linux `script`): standard input, output and error
// on one terminal, as a person runs it; what the terminal showed, and the exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BIN } from './cli.js';

/** `script` is there to make the terminal. */
export const hasScript = existsSync('/usr/bin/script');

/** The built CLI with `args` on a terminal, in `env` (the test process's, then these; undefined removes). */
export function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  /** Keys typed once the screen shows `after` (Ctrl-C is '\x03'); the terminal then stays open. */
  type?: { after: RegExp; input: string },
): Promise<{ code: number | null; screen: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    const e: Record<string, string | undefined> = { ...process.env, ...env };
    for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k];
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: e as NodeJS.ProcessEnv });
    let screen = '';
    let typed = false;
    child.stdout.on('data', (d) => {
      screen += d;
      if (type && !typed && type.after.test(screen)) {
        typed = true;
        child.stdin.write(type.input);
      }
    });
    child.on('close', (code) => resolve({ code, screen }));
    if (!type) child.stdin.end();
  });
}
