// --format pdf: the same HTML printed by a Chromium installed on this machine (headless, its
// own profile in a temporary folder, nothing fetched: the page holds everything). No browser
// is bundled with posdata: where none is found, report says so in one line.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';

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

/**
 * What the browser may see of the run's environment: where programs, fonts and temporary files
 * are, the language and zone. Nothing else: POSDATA_PASSWORD, PGPASSWORD, a token or a
 * connection URL of the run is none of its business, and a crash report or a child of it
 * would carry them on.
 */
const BROWSER_ENV =
  /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TMP|TEMP|FONTCONFIG_[A-Z]+|XDG_[A-Z_]+|DISPLAY|WAYLAND_DISPLAY|DBUS_SESSION_BUS_ADDRESS|SYSTEMROOT|WINDIR)$/;

export function browserEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && BROWSER_ENV.test(k)) out[k] = v;
  return out;
}

export interface PrintOptions {
  /** --timeout, in seconds: how long the browser may take to print. */
  timeout: number;
  /** The run's environment; the browser gets only BROWSER_ENV of it. */
  env: Record<string, string | undefined>;
  /** Registers what an interrupt (SIGINT, SIGTERM) must undo at once; returns its release. */
  onInterrupt: (fn: () => void) => () => void;
}

/** The HTML printed to PDF (A4, as the page's @page asks) by `chromium --headless --print-to-pdf`. */
export async function printPdf(chromium: string, html: string, o: PrintOptions): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'posdata-pdf-'));
  let child: ChildProcess | undefined;
  // Chromium starts helpers of its own (zygote, renderer, GPU): it leads a process group of
  // its own, and the group is ended, so that no helper outlives the run.
  const end = () => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  const release = o.onInterrupt(() => {
    end();
    rmSync(dir, { recursive: true, force: true });
  });
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
    let timedOut = false;
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const c = spawn(chromium, args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: browserEnv(o.env),
        detached: true,
      });
      child = c;
      const timer = setTimeout(() => {
        timedOut = true;
        end();
      }, o.timeout * 1000);
      let err = '';
      c.stderr?.setEncoding('utf8').on('data', (d: string) => {
        if (err.length < 4000) err += d;
      });
      c.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      c.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr: err });
      });
    });
    if (timedOut)
      throw new UsageError(
        say`Chromium did not print the report within ${own(String(o.timeout))} s (--timeout)`,
        say`give a longer --timeout, or write --format html and print it from a browser`,
      );
    if (code !== 0 || !existsSync(out)) {
      const why = stderr.split('\n').find((l) => l.trim() !== '') ?? `exit ${code}`;
      throw new UsageError(
        say`Chromium did not print the report: ${why}`,
        say`write --format html and print it from a browser`,
      );
    }
    return readFileSync(out);
  } finally {
    end();
    release();
    rmSync(dir, { recursive: true, force: true });
  }
}
