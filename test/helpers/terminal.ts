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
): Promise<{ code: number | null; screen: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    const e: Record<string, string | undefined> = { ...process.env, ...env };
    for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k];
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: e as NodeJS.ProcessEnv });
    let screen = '';
    child.stdout.on('data', (d) => {
      screen += d;
    });
    child.on('close', (code) => resolve({ code, screen }));
    child.stdin.end();
  });
}
