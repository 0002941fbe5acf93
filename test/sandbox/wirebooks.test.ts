// Replays the reads posdata books makes, recorded from the bundled real Odoo 17's posci by
// wirebooks-record.mjs (sessions with their entries, the orders' lines as 16-18 read them (three
// arrays, a numeric column's figures as text), the entries' lines grouped and read, the
// accounts' types, the cash journals' lines, the methods' journals), against the sandbox, and
// compares the shape of each reply, as wire17.test.ts does for the POS models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { expectReplayed, recordingsIn } from './replay.js';

const { dir, files } = recordingsIn('wirebooks');

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 11, orders: 1500, days: 14 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("the books' reads (Odoo 17 posci) replayed on the sandbox", () => {
  it('has recordings', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });
  for (const file of files) {
    it(file, () => expectReplayed(sandbox.url, dir, file, 'posci'));
  }
});
