// Suite-wide: every CLI run of every test file appends its stdout and stderr to a
// transcript; at the end the secret must not appear in any of it. The config folders the
// tests make live in one folder per run, removed at the end.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUITE_SECRET } from './helpers/cli.js';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'posdata-transcripts-'));
  process.env.POSDATA_TEST_TRANSCRIPTS = dir;
  // The test files' config folders (freshConfigDir) go here, and go with it at the end.
  const run = mkdtempSync(join(tmpdir(), 'posdata-test-run-'));
  process.env.POSDATA_TEST_TMP = run;
  return () => {
    rmSync(run, { recursive: true, force: true });
    const files = readdirSync(dir);
    let bytes = 0;
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      bytes += text.length;
      if (text.includes(SUITE_SECRET)) {
        throw new Error(`the suite secret appeared in CLI output (transcript ${join(dir, f)})`);
      }
    }
    if (files.length > 0 && bytes === 0)
      throw new Error('the CLI transcripts are empty: the secret check saw nothing');
    process.stdout.write(
      `secret check: ${files.length} transcripts, ${bytes} bytes of CLI output, no secret\n`,
    );
    rmSync(dir, { recursive: true, force: true });
  };
}
