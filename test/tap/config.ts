// The tap's config as the tests write it: a server's connection (the sandbox's admin with the
// suite's secret unless told otherwise), unthrottled, and what a test adds or overrides.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITE_SECRET } from '../helpers/cli.js';

/** The server a config points at: a sandbox handle will do (its url and db). */
export interface TapServer {
  url: string;
  db?: string;
  user?: string;
  password?: string;
}

export function tapConfig(server: TapServer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    url: server.url,
    db: server.db ?? 'demo',
    user: server.user ?? 'admin',
    password: server.password ?? SUITE_SECRET,
    rate: 0,
    ...extra,
  };
}

/** A config written as `name` in `dir`; its path. */
export function writeTapConfig(dir: string, name: string, config: Record<string, unknown>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config));
  return path;
}
