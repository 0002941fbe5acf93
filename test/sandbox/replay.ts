// Replays one recorded request of a real Odoo against a sandbox and compares the reply's
// shape (status, content type, no error, the result's keys and types): what each recording
// folder's test (wirebooks, wireshop) does for each of its files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { shapeDiff } from './shape.js';

interface Recording {
  request: { params: { args: unknown[] } } & Record<string, unknown>;
  response: { result?: unknown } & Record<string, unknown>;
  http: { status: number; content_type: string };
}

/** The recordings (`*.json`) of a folder beside this file. */
export function recordingsIn(folder: string): { dir: string; files: string[] } {
  const dir = join(import.meta.dirname, folder);
  return { dir, files: readdirSync(dir).filter((f) => f.endsWith('.json')) };
}

/**
 * Sends `file`'s request to the sandbox at `url`, its database `db` read as the sandbox's
 * `demo`, and expects the recorded reply's shape. fields_get replies are compared without the
 * order of their top keys (the model's field order).
 */
export async function expectReplayed(url: string, dir: string, file: string, db: string): Promise<void> {
  const rec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording;
  const request = JSON.parse(JSON.stringify(rec.request).replaceAll(`"${db}"`, '"demo"'));
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  expect(res.status).toBe(rec.http.status);
  expect(res.headers.get('content-type')).toBe(rec.http.content_type);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.error).toBeUndefined();
  const method = rec.request.params.args[4];
  expect(shapeDiff(rec.response.result, body.result, '$', [], method !== 'fields_get')).toEqual([]);
}
