// Replays the requests recorded from the bundled real Odoo 17's `posshop` (a shop and a
// restaurant with pos_hr, pos_restaurant, pos_loyalty and pos_discount; recorded by
// wireshop-record.mjs) against a sandbox with the same modules, and compares the shape of each
// reply, as wire17.test.ts does for the plain shop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';
import { expectReplayed, recordingsIn } from './replay.js';

const { dir, files } = recordingsIn('wireshop');

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 29, orders: 1500, days: 21, ...SHOP_MODULES });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('posshop (Odoo 17 with pos_hr, pos_restaurant, pos_loyalty, pos_discount) wire replay', () => {
  it('has recordings', () => {
    expect(files.length).toBeGreaterThan(15);
  });
  for (const file of files) {
    it(file, () => expectReplayed(sandbox.url, dir, file, 'posshop'));
  }
});
