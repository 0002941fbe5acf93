// Replays the reads posdata books makes, recorded from the bundled real Odoo 17's posci by
// wirebooks-record.mjs (sessions with their entries, the entries' lines grouped and read, the
// accounts' types, the cash journals' lines, the methods' journals), against the sandbox, and
// compares the shape of each reply, as wire17.test.ts does for the POS models.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { shapeDiff } from './shape.js';

interface Recording {
  request: { params: { args: unknown[] } } & Record<string, unknown>;
  response: { result?: unknown } & Record<string, unknown>;
  http: { status: number; content_type: string };
}

const dir = join(import.meta.dirname, 'wirebooks');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 11, orders: 1500, days: 14 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("the books' reads (Odoo 17 posci) replayed on the sandbox", () => {
  it('has recordings', () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
  });
  for (const file of files) {
    it(file, async () => {
      const rec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording;
      const request = JSON.parse(JSON.stringify(rec.request).replace(/"posci"/g, '"demo"'));
      const res = await fetch(`${sandbox.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
      });
      expect(res.status).toBe(rec.http.status);
      expect(res.headers.get('content-type')).toBe(rec.http.content_type);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toBeUndefined();
      expect(shapeDiff(rec.response.result, body.result)).toEqual([]);
    });
  }
});
