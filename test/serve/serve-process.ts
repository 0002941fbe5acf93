// `posdata serve` as a real process on a free loopback port (--port 0; the port is read
// from the ready line on stderr), and small HTTP helpers for the tests that call it.
import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from '../helpers/cli.js';

export interface Served {
  base: string;
  proc: ChildProcess;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function startServe(args: string[], env: Record<string, string>): Promise<Served> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let ready = false;
    const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /posdata serve: (http:\/\/[^\s]+) \(docs at/.exec(err);
      if (m && !ready) {
        ready = true;
        resolve({
          base: m[1],
          proc,
          stderr: () => err,
          stop: async () => {
            if (proc.exitCode === null) proc.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    proc.on('exit', (code) => {
      if (!ready) reject(new Error(`serve exited ${code} before it was ready: ${err}`));
    });
  });
}

export interface Answer {
  status: number;
  type: string;
  headers: Headers;
  text: string;
}

export async function get(base: string, path: string, token?: string): Promise<Answer> {
  const res = await fetch(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

export async function post(base: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + path, {
    method: 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

export async function login(base: string, user: string, password: string): Promise<string> {
  const r = await post(base, '/api/v1/auth/login', { login: user, password });
  if (r.status !== 200) throw new Error(`login ${user} failed: ${r.status} ${r.text}`);
  return (JSON.parse(r.text) as { token: string }).token;
}
