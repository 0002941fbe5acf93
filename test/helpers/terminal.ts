// posdata on a real pseudo-terminal (util-linux `script`): standard input, output and error
// on one terminal, as a person runs it; what the terminal showed, and the exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BIN } from './cli.js';

/** `script` is there to make the terminal. */
export const hasScript = existsSync('/usr/bin/script');

/** Keys typed once the screen shows `after`. */
export interface Keys {
  after: RegExp;
  input: string;
}

/** The built CLI with `args` on a terminal, in `env` (the test process's, then these; undefined removes). */
export function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  /**
   * What a person types once the screen shows `after` (a password, Ctrl-C '\x03', Ctrl-D
   * '\x04'), each in turn; typed, not ended: the terminal then stays open as a person's does.
   */
  type?: Keys | Keys[],
): Promise<{ code: number | null; screen: string }> {
  // `exec`: posdata is the terminal's own process, as when a person types the command; not a
  // child of the shell `script` starts ($SHELL, else dash, which a Ctrl-C kills meanwhile).
  const quoted = `exec ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')}`;
  return new Promise((resolve) => {
    const e: Record<string, string | undefined> = { ...process.env, ...env };
    for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k];
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: e as NodeJS.ProcessEnv });
    const steps = type === undefined ? [] : Array.isArray(type) ? [...type] : [type];
    let screen = '';
    child.stdout.on('data', (d) => {
      screen += d;
      while (steps.length > 0 && steps[0].after.test(screen)) child.stdin.write(steps.shift()?.input);
    });
    child.on('close', (code) => resolve({ code, screen }));
    if (type === undefined) child.stdin.end();
  });
}
