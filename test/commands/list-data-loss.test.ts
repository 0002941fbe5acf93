// Nothing lost (issue 18, "Data loss"): each case is a way an unlucky cron job or a hostile
// server made posdata lose data, and each test shows it held: a non-zero exit with one line,
// the checkpoint and -o FILE as they were. Full disks and read-only places are real
// (a small tmpfs, /dev/full, a read-only bind mount); where the machine cannot mount, those
// tests are skipped and say so in their names.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult, loginEnv, runCli, runToFile, spawnCli } from '../helpers/cli.js';
import { type Hostile, startHostile } from '../helpers/hostile-proxy.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

function ids(csv: string): number[] {
  return (parse(csv, { columns: true }) as { id: string }[]).map((r) => Number(r.id));
}

/** Starts posdata in the background (a slow export that is still running when asked). */
function startCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: 'ignore',
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
}

async function until(cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function mount(args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function umount(at: string): void {
  try {
    execFileSync('umount', [at], { stdio: 'ignore' });
  } catch {
    /* not mounted */
  }
}

/** Whether this machine lets the tests mount a small tmpfs (root in a namespace that allows it). */
const CAN_MOUNT = (() => {
  const at = mkdtempSync(join(tmpdir(), 'posdata-mount-probe-'));
  const ok = mount(['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', at]);
  if (ok) umount(at);
  rmSync(at, { recursive: true, force: true });
  return ok;
})();
const NO_MOUNT = '(a real tmpfs; skipped where none can be mounted)';

/** A disk of `kb` KiB; returns its folder. Proven small: a bigger file does not fit. */
function smallDisk(at: string, kb: number): string {
  mkdirSync(at, { recursive: true });
  if (!mount(['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', at])) throw new Error(`cannot mount at ${at}`);
  expect(() => writeFileSync(join(at, 'probe'), Buffer.alloc((kb + 4) * 1024))).toThrow(/ENOSPC/);
  rmSync(join(at, 'probe'), { force: true });
  return at;
}

/** `at` as a read-only view of `src`. Proven read-only: nothing can be created in it. */
function readOnlyView(src: string, at: string): string {
  mkdirSync(at, { recursive: true });
  if (!mount(['--bind', src, at]) || !mount(['-o', 'remount,ro,bind', at]))
    throw new Error(`cannot bind-mount ${src} read-only at ${at}`);
  expect(() => writeFileSync(join(at, 'probe'), 'x')).toThrow(/EROFS/);
  return at;
}

describe('data loss (issue 18)', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  let rpc: Rpc;
  let dir: string;
  const mounts: string[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 18, orders: 400 });
    env = await loginEnv(sandbox.url);
    rpc = new Rpc(sandbox.url);
    dir = mkdtempSync(join(tmpdir(), 'posdata-dataloss-'));
  }, 60_000);

  afterAll(async () => {
    for (const m of mounts.reverse()) umount(m);
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (env?.POSDATA_CONFIG_DIR) rmSync(env.POSDATA_CONFIG_DIR, { recursive: true, force: true });
  });

  const temps = (d = dir) => readdirSync(d).filter((f) => f.endsWith('.posdata-tmp'));
  const oneLine = (r: CliResult, re: RegExp) => {
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(re);
  };

  describe('1: standard output on a full disk', () => {
    it('> /dev/full: exit 2, one line, the checkpoint as it was', async () => {
      expect(() => writeFileSync('/dev/full', 'x')).toThrow(/ENOSPC/);
      const cp = join(dir, 'devfull.ckpt');
      expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env })).code).toBe(0);
      const before = readFileSync(cp, 'utf8');
      const r = await runToFile(['sales', '--checkpoint', cp, '--rate', '0', '--full'], '/dev/full', env);
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: cannot write standard output: no space left on device; /);
      expect(readFileSync(cp, 'utf8')).toBe(before);
    });

    // Written by no sink: the error comes from the stream after the command has returned.
    it.each([[['completion', 'bash']], [['sales', '--help']], [['help', 'sales']], [['--help']]])(
      '> /dev/full, posdata %j: exit 2, one line',
      async (args) => {
        const r = await runToFile(args, '/dev/full', env);
        expect(r.code).toBe(2);
        oneLine(r, /^posdata: cannot write standard output: no space left on device; /);
      },
    );

    it.skipIf(!CAN_MOUNT)(
      `> a file on a full disk: exit 2, the checkpoint as it was ${NO_MOUNT}`,
      async () => {
        const disk = smallDisk(join(dir, 'full1'), 16);
        mounts.push(disk);
        const cp = join(dir, 'redirect.ckpt');
        expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env })).code).toBe(0);
        const before = readFileSync(cp, 'utf8');
        const r = await runToFile(
          ['sales', '--checkpoint', cp, '--rate', '0', '--full'],
          join(disk, 'out.csv'),
          env,
        );
        expect(r.code).toBe(2);
        oneLine(r, /^posdata: cannot write standard output: no space left on device; /);
        expect(readFileSync(cp, 'utf8')).toBe(before);
      },
    );
  });

  describe('2: a client clock ahead of Odoo by more than --overlap', () => {
    let behind: SandboxHandle;
    let behindEnv: Record<string, string>;
    beforeAll(async () => {
      behind = await startTestSandbox({ seed: 19, orders: 200, clockOffsetSeconds: -3600 });
      behindEnv = await loginEnv(behind.url);
    }, 60_000);
    afterAll(async () => {
      await behind?.close();
      if (behindEnv?.POSDATA_CONFIG_DIR)
        rmSync(behindEnv.POSDATA_CONFIG_DIR, { recursive: true, force: true });
    });

    it('a change made between two runs is exported by the second', async () => {
      const cp = join(dir, 'skew.ckpt');
      const r1 = await runCli(['sales', '--checkpoint', cp, '-o', join(dir, 'skew1.csv'), '--rate', '0'], {
        env: behindEnv,
      });
      expect(r1.code).toBe(0);
      const odoo = new Rpc(behind.url);
      const [order] = await odoo.searchRead('pos.order', [['state', '=', 'done']], {
        fields: ['id'],
        limit: 1,
      });
      await odoo.kw('pos.order', 'write', [[order.id], { state: 'invoiced' }]);
      const [{ write_date }] = await odoo.kw<{ write_date: string }[]>('pos.order', 'read', [[order.id]], {
        fields: ['write_date'],
      });
      // The fault: Odoo stamps the change more than --overlap (300 s) before the client's clock.
      expect(Date.now() - Date.parse(`${write_date.replace(' ', 'T')}Z`)).toBeGreaterThan(300_000);
      const out = join(dir, 'skew2.csv');
      const r2 = await runCli(['sales', '--checkpoint', cp, '-o', out, '--rate', '0'], { env: behindEnv });
      expect(r2.code).toBe(0);
      expect(ids(readFileSync(out, 'utf8'))).toContain(order.id);
    });
  });

  describe('3: --checkpoint with --limit', () => {
    it('advances only to the last record written: the next run has the rest', async () => {
      const cp = join(dir, 'limit.ckpt');
      const a = join(dir, 'limit-a.csv');
      const b = join(dir, 'limit-b.csv');
      const r1 = await runCli(['sales', '--checkpoint', cp, '--limit', '50', '-o', a, '--rate', '0'], {
        env,
      });
      expect(r1.code).toBe(0);
      expect(ids(readFileSync(a, 'utf8'))).toHaveLength(50);
      const r2 = await runCli(['sales', '--checkpoint', cp, '-o', b, '--rate', '0'], { env });
      expect(r2.code).toBe(0);
      const all = new Set([...ids(readFileSync(a, 'utf8')), ...ids(readFileSync(b, 'utf8'))]);
      expect(all.size).toBe(await rpc.count('pos.order', []));
    });
  });

  describe('4: a damaged checkpoint and absurd spans', () => {
    const damaged = async (name: string, windowEnd: string) => {
      const cp = join(dir, `${name}.ckpt`);
      expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env })).code).toBe(0);
      const saved = JSON.parse(readFileSync(cp, 'utf8'));
      writeFileSync(cp, JSON.stringify({ ...saved, windowEnd }));
      const before = readFileSync(cp, 'utf8');
      const r = await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: checkpoint .* (is damaged|lies in the future)/);
      expect(r.stdout).toBe('');
      expect(readFileSync(cp, 'utf8')).toBe(before);
    };
    it('an unparseable window end is exit 2', () => damaged('garbled', 'yesterday-ish'));
    it('a window end in the future is exit 2', () => damaged('future', '2999-01-01 00:00:00'));

    it('--overlap 1e20 is exit 2', async () => {
      const cp = join(dir, 'overlap.ckpt');
      expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env })).code).toBe(0);
      const r = await runCli(['sales', '--checkpoint', cp, '--overlap', '1e20', '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: --overlap/);
    });

    it('--from 99999999999999999999d is exit 2', async () => {
      const r = await runCli(['sales', '--from', '99999999999999999999d', '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: --from '99999999999999999999d'/);
    });
  });

  describe('5: --checkpoint and -o on the same file', () => {
    for (const [name, ckpt, out] of [
      ['the same path', 'same.x', 'same.x'],
      ['a relative and an absolute path', 'rel.x', '__DIR__/rel.x'],
      ['a symlink to it', 'target.x', 'link.x'],
    ] as const) {
      it(`is refused before anything is written (${name})`, async () => {
        if (name === 'a symlink to it') symlinkSync(join(dir, 'target.x'), join(dir, 'link.x'));
        const r = await spawnCli(
          ['sales', '--checkpoint', ckpt, '-o', out.replace('__DIR__', dir), '--rate', '0'],
          { env, cwd: dir },
        );
        expect(r.code).toBe(2);
        oneLine(r, /^posdata: --checkpoint and -o are the same file/);
        expect(existsSync(join(dir, ckpt))).toBe(false);
      });
    }
  });

  describe('6: the checkpoint cannot be saved', () => {
    it.skipIf(!CAN_MOUNT)(`read-only: -o and the checkpoint stay as they were ${NO_MOUNT}`, async () => {
      const src = join(dir, 'ro-src');
      mkdirSync(src);
      const cp = join(src, 'sales.ckpt');
      expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env })).code).toBe(0);
      const before = readFileSync(cp, 'utf8');
      const ro = readOnlyView(src, join(dir, 'ro'));
      mounts.push(ro);
      const out = join(dir, 'ro-out.csv');
      writeFileSync(out, 'OLD\n');
      const r = await runCli(['sales', '--checkpoint', join(ro, 'sales.ckpt'), '-o', out, '--rate', '0'], {
        env,
      });
      expect(r.code).toBe(2);
      // The lock beside it cannot be made either: refused before exporting.
      oneLine(r, /^posdata: cannot write the checkpoint .*read-only file system/);
      expect(readFileSync(out, 'utf8')).toBe('OLD\n');
      expect(readFileSync(cp, 'utf8')).toBe(before);
      expect(temps()).toEqual([]);
    });

    it.skipIf(!CAN_MOUNT)(`full: -o and the checkpoint stay as they were ${NO_MOUNT}`, async () => {
      const disk = smallDisk(join(dir, 'full6'), 16);
      mounts.push(disk);
      const cp = join(disk, 'sales.ckpt');
      expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env })).code).toBe(0);
      const before = readFileSync(cp, 'utf8');
      // Fill it up to one page: the lock takes that, the checkpoint's new state finds none.
      writeFileSync(join(disk, 'filler'), Buffer.alloc(8 * 1024));
      writeFileSync(join(disk, 'probe1'), 'x');
      expect(() => writeFileSync(join(disk, 'probe2'), 'x')).toThrow(/ENOSPC/);
      rmSync(join(disk, 'probe1'));
      rmSync(join(disk, 'probe2'), { force: true });
      const out = join(dir, 'full-out.csv');
      writeFileSync(out, 'OLD\n');
      // --full: a run that goes on from the checkpoint would not replace -o at all.
      const r = await runCli(['sales', '--checkpoint', cp, '--full', '-o', out, '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: cannot write the checkpoint .*sales\.ckpt: no space left on device/);
      expect(readFileSync(out, 'utf8')).toBe('OLD\n');
      expect(readFileSync(cp, 'utf8')).toBe(before);
      expect(temps(disk)).toEqual([]);
      expect(temps()).toEqual([]);
    });
  });

  describe('7: a relative --from with --checkpoint', () => {
    for (const from of ['2h', 'today']) {
      it(`--from ${from}: the next run accepts the checkpoint`, async () => {
        const cp = join(dir, `rel-${from}.ckpt`);
        const run = () => runCli(['sales', '--from', from, '--checkpoint', cp, '--rate', '0'], { env });
        expect((await run()).code).toBe(0);
        // The resolved --from moves on with the clock.
        await new Promise((r) => setTimeout(r, 1100));
        const r = await run();
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      });
    }
  });

  describe('8: a reply that is not what was asked', () => {
    let hostile: Hostile;
    let hEnv: Record<string, string>;
    beforeAll(async () => {
      hostile = await startHostile(sandbox.url);
      hEnv = await loginEnv(hostile.url);
    });
    afterAll(async () => {
      await hostile?.close();
      if (hEnv?.POSDATA_CONFIG_DIR) rmSync(hEnv.POSDATA_CONFIG_DIR, { recursive: true, force: true });
    });

    for (const mode of ['no-id', 'repeated-ids', 'ignore-domain', 'not-a-list'] as const) {
      for (const withCheckpoint of [false, true]) {
        it(`${mode}${withCheckpoint ? ' with --checkpoint' : ''}: exit 6, one line, nothing advanced`, async () => {
          const cp = join(dir, `hostile-${mode}.ckpt`);
          const out = join(dir, `hostile-${mode}.csv`);
          writeFileSync(out, 'OLD\n');
          hostile.mode = 'pass';
          if (withCheckpoint) {
            expect((await runCli(['sales', '--checkpoint', cp, '--rate', '0'], { env: hEnv })).code).toBe(0);
          }
          const before = withCheckpoint ? readFileSync(cp, 'utf8') : '';
          hostile.mode = mode;
          const args = ['sales', '-o', out, '--rate', '0', '--page-size', '50'];
          if (withCheckpoint) args.push('--checkpoint', cp, '--full');
          // An endless export fails the test at its timeout.
          const r = await runCli(args, { env: hEnv });
          expect(r.code).toBe(6);
          oneLine(r, /^posdata: .*(reply|answer)/);
          expect(readFileSync(out, 'utf8')).toBe('OLD\n');
          if (withCheckpoint) expect(readFileSync(cp, 'utf8')).toBe(before);
        }, 30_000);
      }
    }
  });

  describe('9: temporary files, symlinks, devices and folders', () => {
    it('a temporary file left by kill -9 is swept by the next run on that file', async () => {
      const out = join(dir, 'swept.csv');
      const slow = startCli(['sales', '-o', out, '--rate', '1', '--page-size', '50'], env);
      await until(() => temps().some((t) => t.startsWith('.swept.csv.')));
      slow.kill('SIGKILL');
      await exited(slow);
      expect(temps().filter((t) => t.startsWith('.swept.csv.'))).toHaveLength(1);
      const r = await runCli(['sales', '-o', out, '--rate', '0'], { env });
      expect(r.code).toBe(0);
      expect(temps().filter((t) => t.startsWith('.swept.csv.'))).toEqual([]);
    });

    it("another live run's temporary file is left alone", async () => {
      const out = join(dir, 'shared.csv');
      const slow = startCli(['sales', '-o', out, '--rate', '1', '--page-size', '50'], env);
      await until(() => temps().some((t) => t.startsWith('.shared.csv.')));
      const mine = temps().filter((t) => t.startsWith('.shared.csv.'));
      const r = await runCli(['sales', '-o', out, '--rate', '0'], { env });
      expect(r.code).toBe(0);
      expect(temps().filter((t) => t.startsWith('.shared.csv.'))).toEqual(mine);
      slow.kill('SIGTERM');
      await exited(slow);
      expect(temps().filter((t) => t.startsWith('.shared.csv.'))).toEqual([]);
    });

    it('-o onto a symlink writes its target, atomically, and keeps the link', async () => {
      const target = join(dir, 'real.csv');
      const link = join(dir, 'link.csv');
      writeFileSync(target, 'OLD\n');
      symlinkSync(target, link);
      const r = await runCli(['sales', '-o', link, '--rate', '0'], { env });
      expect(r.code).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(ids(readFileSync(target, 'utf8')).length).toBe(await rpc.count('pos.order', []));
      expect(temps()).toEqual([]);
    });

    it('-o onto a folder is refused before anything is asked of the server', async () => {
      const folder = join(dir, 'a-folder');
      mkdirSync(folder);
      const before = sandbox.requestCount();
      const r = await runCli(['sales', '-o', folder, '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: -o .* is a folder/);
      expect(sandbox.requestCount()).toBe(before);
      expect(temps()).toEqual([]);
    });

    it('-o onto a device is refused before anything is asked of the server', async () => {
      const dev = join(dir, 'null-device');
      try {
        execFileSync('mknod', [dev, 'c', '1', '3'], { stdio: 'ignore' });
      } catch {
        return; // cannot make a device node here; /dev/null itself is not put at risk
      }
      expect(lstatSync(dev).isCharacterDevice()).toBe(true);
      const before = sandbox.requestCount();
      const r = await runCli(['sales', '-o', dev, '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: -o .* is a device/);
      expect(sandbox.requestCount()).toBe(before);
      expect(lstatSync(dev).isCharacterDevice()).toBe(true);
      expect(temps()).toEqual([]);
    });
  });

  describe('10: two runs on the same checkpoint', () => {
    it('the second exits with one line while the first runs; an interrupt frees it', async () => {
      const cp = join(dir, 'locked.ckpt');
      const a = join(dir, 'locked-a.csv');
      const first = startCli(['sales', '--checkpoint', cp, '-o', a, '--rate', '1', '--page-size', '50'], env);
      // The run holds the checkpoint (its lock) before its first page, the header with it.
      await until(() => existsSync(`${cp}.lock`));
      const r = await runCli(['sales', '--checkpoint', cp, '-o', join(dir, 'locked-b.csv'), '--rate', '0'], {
        env,
      });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: checkpoint .* is in use by another posdata run/);
      expect(existsSync(join(dir, 'locked-b.csv'))).toBe(false);
      expect(existsSync(cp)).toBe(false);
      first.kill('SIGTERM');
      expect(await exited(first)).toBe(130);
      const c = await runCli(['sales', '--checkpoint', cp, '-o', join(dir, 'locked-c.csv'), '--rate', '0'], {
        env,
      });
      expect(c.stderr).toBe('');
      expect(c.code).toBe(0);
      expect(ids(readFileSync(join(dir, 'locked-c.csv'), 'utf8')).length).toBe(
        await rpc.count('pos.order', []),
      );
      expect(readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    });

    it('an interrupted checkpoint run to standard output frees its lock and speaks of no -o file', async () => {
      const cp = join(dir, 'stdout.ckpt');
      let pid = 0;
      const running = spawnCli(
        ['sales', '--checkpoint', cp, '--format', 'csv', '--rate', '1', '--page-size', '50'],
        {
          env,
          started: (p) => {
            pid = p;
          },
        },
      );
      await until(() => existsSync(`${cp}.lock`));
      process.kill(pid, 'SIGTERM');
      const r = await running;
      expect(r.code).toBe(130);
      expect(r.stderr).toBe('posdata: interrupted by SIGTERM\n');
      expect(existsSync(`${cp}.lock`)).toBe(false);
    });

    it('a lock left by kill -9 does not block the next run', async () => {
      const cp = join(dir, 'killed.ckpt');
      const slow = startCli(['sales', '--checkpoint', cp, '-o', join(dir, 'killed.csv'), '--rate', '1'], env);
      await until(() => existsSync(`${cp}.lock`));
      slow.kill('SIGKILL');
      await exited(slow);
      const r = await runCli(['sales', '--checkpoint', cp, '-o', join(dir, 'killed.csv'), '--rate', '0'], {
        env,
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    });
  });

  describe('22: file errors are not internal errors', () => {
    it.skipIf(!CAN_MOUNT)(`-o on a full disk: exit 2, one line, no temporary file ${NO_MOUNT}`, async () => {
      const disk = smallDisk(join(dir, 'full22'), 16);
      mounts.push(disk);
      writeFileSync(join(disk, 'out.csv'), 'OLD\n');
      const r = await runCli(['sales', '-o', join(disk, 'out.csv'), '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: cannot write .*out\.csv: no space left on device; /);
      expect(readFileSync(join(disk, 'out.csv'), 'utf8')).toBe('OLD\n');
      expect(temps(disk)).toEqual([]);
    });

    it.skipIf(!CAN_MOUNT)(`-o in a read-only place: exit 2, one line ${NO_MOUNT}`, async () => {
      const src = join(dir, 'ro22-src');
      mkdirSync(src);
      const ro = readOnlyView(src, join(dir, 'ro22'));
      mounts.push(ro);
      const r = await runCli(['sales', '-o', join(ro, 'out.csv'), '--rate', '0'], { env });
      expect(r.code).toBe(2);
      oneLine(r, /^posdata: cannot write .*out\.csv: read-only file system; /);
    });

    it('a corrupt store is exit 2 with one line, for login too', async () => {
      const cfg = mkdtempSync(join(tmpdir(), 'posdata-test-cfg-'));
      try {
        writeFileSync(join(cfg, 'config.json'), '{broken', { mode: 0o600 });
        const r = await runCli(
          ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
          {
            env: { POSDATA_CONFIG_DIR: cfg },
            input: 'admin',
          },
        );
        expect(r.code).toBe(2);
        oneLine(r, /^posdata: .*posdata store .*damaged/);
        expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe('{broken');
      } finally {
        rmSync(cfg, { recursive: true, force: true });
      }
    });
  });
});
