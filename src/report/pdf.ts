// --format pdf: the same HTML printed by a Chromium installed on this machine (headless, its
// own profile in a temporary folder, nothing fetched: the page holds everything). No browser
// is bundled with posdata: where none is found, report says so in one line.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/** POSDATA_CHROMIUM, else the usual places; undefined where there is none. */
export function findChromium(env: Record<string, string | undefined>): string | undefined {
  const given = env.POSDATA_CHROMIUM;
  if (given !== undefined) return given !== '' && existsSync(given) ? given : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

/** The HTML printed to PDF (A4, as the page's @page asks) by `chromium --headless --print-to-pdf`. */
export async function printPdf(chromium: string, html: string): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'posdata-pdf-'));
  try {
    const page = join(dir, 'report.html');
    const out = join(dir, 'report.pdf');
    writeFileSync(page, html, { mode: 0o600 });
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${out}`,
      pathToFileURL(page).href,
    ];
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(chromium, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (err.length < 4000) err += d;
      });
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    if (code !== 0 || !existsSync(out)) {
      const why = stderr.split('\n').find((l) => l.trim() !== '') ?? `exit ${code}`;
      throw new UsageError(
        say`Chromium did not print the report: ${why}`,
        say`write --format html and print it from a browser`,
      );
    }
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
