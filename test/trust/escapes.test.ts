// A server's words reach the terminal as text, never as orders to it: the escape sequences in
// an Odoo error message (OSC 52 that writes the clipboard, a window title, ESC[2J that
// clears the screen, a bare CR that overwrites the line) are shown escaped on stderr, as
// tables show them in a name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, spawnCli } from '../helpers/cli.js';
import { type Hostile, plainOdoo, startHostile } from '../helpers/hostile.js';

const HOSTILE_TEXT =
  'Access denied\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x1b]0;pwned\x07\rposdata: all good\u202e';

let hostile: Hostile;

beforeAll(async () => {
  hostile = await startHostile((call) =>
    call.params.service === 'object' ? { error: HOSTILE_TEXT } : plainOdoo(call),
  );
});

afterAll(async () => {
  await hostile?.close();
});

function expectEscaped(stderr: string): void {
  expect(stderr).toMatch(/^posdata: /m);
  // Nothing a terminal obeys: no ESC, BEL, CR, nor a bidirectional override.
  expect(stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
  expect(stderr).toContain('Access denied\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\x1b]0;pwned\\x07\\rposdata');
  expect(stderr).toContain('\\u202e');
}

describe("an Odoo error message's control characters", () => {
  const env = () => ({
    POSDATA_CONFIG_DIR: freshConfigDir(),
    POSDATA_URL: hostile.url,
    POSDATA_DB: 'demo',
    POSDATA_USER: 'admin',
    POSDATA_PASSWORD: 'admin',
  });

  it('are escaped in the one line on stderr', async () => {
    const r = await runCli(['sales', '--protocol', 'jsonrpc', '--rate', '0'], { env: env() });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expectEscaped(r.stderr);
  });

  it('are escaped by the built CLI too, with --debug', async () => {
    const r = await spawnCli(['sales', '--protocol', 'jsonrpc', '--rate', '0', '--debug'], { env: env() });
    expect(r.code).not.toBe(0);
    expectEscaped(r.stderr);
  });
});
