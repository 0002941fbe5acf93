// One checkpointed run's bookkeeping (src/read/checkpoint.ts CheckpointRun): each record
// written once, and the checkpoint after the run, which --limit holds back to the last record
// written. No server: the records are what a page would hold.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Said } from '../../src/core/redact.js';
import { type Checkpoint, CheckpointRun } from '../../src/read/checkpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'posdata-cprun-'));
const window = { domain: [], windowEnd: '2026-11-25 12:00:00' };
const previous: Checkpoint = {
  version: 1,
  resource: 'sales',
  model: 'pos.order',
  server: 'http://odoo|shop',
  query: 'q',
  windowEnd: '2026-11-25 11:00:00',
  overlapSeconds: 300,
  lastRunAt: '2026-11-25T11:00:00Z',
  lastCount: 1,
};

function run(name: string, limit?: number, before: Checkpoint | undefined = previous) {
  const path = join(dir, name);
  const r = new CheckpointRun({ file: name, path }, before, window, {
    resource: 'sales',
    model: 'pos.order',
    server: 'http://odoo|shop',
    query: 'q',
    overlapSeconds: 300,
    limit,
  });
  const warned: Said[] = [];
  const finish = (count: number): Checkpoint => {
    r.stage(count, (l) => warned.push(l)).commit();
    return JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
  };
  return { r, warned, finish };
}

describe('CheckpointRun', () => {
  it('writes a record once in a run, even when it comes again', () => {
    const { r } = run('once.ckpt');
    expect(r.keep([{ id: 1 }, { id: 2 }])).toEqual([true, true]);
    expect(r.keep([{ id: 2 }, { id: 3 }])).toEqual([false, true]);
  });

  it('moves the checkpoint to the window end when the run read everything', () => {
    const { r, finish, warned } = run('all.ckpt');
    r.keep([{ id: 1, write_date: '2026-11-25 11:30:00' }]);
    expect(finish(1)).toMatchObject({ windowEnd: '2026-11-25 12:00:00', lastCount: 1, query: 'q' });
    expect(warned).toEqual([]);
  });

  it('with --limit reached, moves it only to the last record written', () => {
    const { r, finish } = run('limit.ckpt', 2);
    r.keep([
      { id: 1, write_date: '2026-11-25 11:10:00' },
      { id: 2, write_date: '2026-11-25 11:20:00' },
    ]);
    expect(finish(2).windowEnd).toBe('2026-11-25 11:20:00');
  });

  it('with --limit ending within the last overlap, keeps it and says so', () => {
    const { r, finish, warned } = run('overlap.ckpt', 1);
    r.keep([{ id: 1, write_date: '2026-11-25 10:58:00' }]);
    expect(finish(1).windowEnd).toBe('2026-11-25 11:00:00');
    expect(warned.map(String).join()).toMatch(/did not move on; raise --limit/);
  });
});
