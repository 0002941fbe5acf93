// Runs `posdata sandbox ARGS` as a real process until its banner is out: the command's own start-up,
// flags and banner, against which a test then makes RPC calls.
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/cli.js';

export interface RunningSandbox {
  banner: string;
  url: string;
  stop: () => void;
}

export async function startSandboxCommand(args: string[]): Promise<RunningSandbox> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => {
    child.kill('SIGTERM');
  };
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('Ctrl-C to stop')) resolve(out);
      });
      child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
    });
    return { banner, url: /on (http:\/\/\S+) /.exec(banner)?.[1] as string, stop };
  } catch (err) {
    stop();
    throw err;
  }
}
