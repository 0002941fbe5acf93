// The list commands (configs, sales, lines, refunds, cancellations, closures, payments,
// products): flags → query → pages → renderer → sink, with checkpoints and progress.
import { NotFoundError, UsageError } from '../core/errors.js';
import { nameList, own, say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import {
  type Checkpoint,
  loadCheckpoint,
  lockCheckpoint,
  MAX_OVERLAP,
  queryHash,
  refuseReplace,
  stageCheckpoint,
  WINDOW_NAME,
  type Window,
  windowFileName,
  windowFor,
} from '../export/checkpoint.js';
import { afterRecords } from '../export/memory.js';
import { normalizerFor, prepare, streamRows } from '../export/stream.js';
import { checkJsonValue, parseDomain, type QueryFlags } from '../query/build.js';
import { COUNTED_STATES, RESOURCES, type ResourceName } from '../query/resources.js';
import { checkZone, machineZone } from '../query/time.js';
import { resolveTarget, type Staged, sameFile } from '../sink/atomic.js';
import { type ConnectionOptions, openSession } from './connection.js';
import type { IO } from './io.js';
import { onInterrupt } from './live.js';
import { checkOutput, chooseFormat, makeRenderer, openSink } from './output.js';
import { Progress } from './progress.js';
import { list } from './values.js';

export interface ListOptions extends ConnectionOptions {
  configId?: number;
  sessionId?: number;
  state?: string;
  from?: string;
  to?: string;
  tz?: string;
  fields?: string;
  limit?: number;
  sort?: string;
  domain?: string;
  pageSize?: number;
  withPayments?: boolean;
  format?: string;
  output?: string;
  excel?: boolean;
  checkpoint?: string;
  full?: boolean;
  overlap?: number;
  delimiter?: string;
  decimal?: string;
  lang?: string;
  company?: string;
  includeArchived?: boolean;
  context?: string;
  count?: boolean;
  dryRun?: boolean;
}

/** --lang, --company, --include-archived and --context as one Odoo context. */
export function contextFrom(o: ListOptions): Record<string, unknown> | undefined {
  let ctx: Record<string, unknown> = {};
  if (o.context !== undefined) {
    let v: unknown;
    try {
      v = JSON.parse(o.context);
    } catch {
      throw new UsageError(
        say`--context is not JSON`,
        say`write it as a JSON object, e.g. --context '{"lang": "fr_BE"}'`,
      );
    }
    checkJsonValue(v, '--context', 'a flat JSON object, e.g. --context \'{"lang": "fr_BE"}\'');
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new UsageError(
        say`--context is not a JSON object`,
        say`write it as a JSON object, e.g. --context '{"lang": "fr_BE"}'`,
      );
    }
    ctx = { ...(v as Record<string, unknown>) };
  }
  if (o.lang !== undefined) {
    if (!/^[a-z]{2,3}(_[A-Z]{2})?(@\w+)?$/.test(o.lang))
      throw new UsageError(say`--lang '${o.lang}' is not a language code`, say`use e.g. en_US or fr_BE`);
    ctx.lang = o.lang;
  }
  if (o.company !== undefined) {
    const ids = list(o.company).map(Number);
    if (ids.length === 0 || ids.some((n) => !Number.isSafeInteger(n) || n < 1)) {
      throw new UsageError(
        say`--company '${o.company}' is not a list of company ids`,
        say`use e.g. --company 1 or --company 1,3`,
      );
    }
    ctx.allowed_company_ids = ids;
  }
  if (o.includeArchived) ctx.active_test = false;
  return Object.keys(ctx).length > 0 ? ctx : undefined;
}

export async function runList(
  name: ResourceName,
  arg: string | undefined,
  o: ListOptions,
  io: IO,
): Promise<void> {
  const resource = RESOURCES[name];
  // Everything that can be checked without the server is checked first.
  const format = chooseFormat(o.format, o.output, io);
  if (o.tz) checkZone(o.tz);
  if (o.checkpoint && !resource.checkpoint) {
    throw new UsageError(
      say`--checkpoint does not apply to ${own(name)}`,
      say`use it with sales, refunds, cancellations, closures or payments`,
    );
  }
  if (o.checkpoint && o.sort)
    throw new UsageError(say`--checkpoint exports in write_date order`, say`drop --sort`);
  if (o.overlap !== undefined && o.overlap > MAX_OVERLAP)
    throw new UsageError(
      say`--overlap ${o.overlap} is longer than a century`,
      say`give it in seconds, e.g. 300`,
    );
  if (o.full && !o.checkpoint)
    throw new UsageError(say`--full goes with --checkpoint`, say`add --checkpoint FILE`);
  if (o.withPayments && name !== 'sales')
    throw new UsageError(say`--with-payments applies to sales`, say`use posdata payments`);
  let orderId: number | undefined;
  if (name === 'lines') {
    if (!arg || !/^\d+$/.test(arg) || Number(arg) < 1) {
      throw new UsageError(
        say`'${arg ?? ''}' is not an order id`,
        say`give the numeric id of a sales ticket: posdata lines 42`,
      );
    }
    orderId = Number(arg);
  }
  // -o named by the run's window ({from}, {to}) is known once the window is.
  const named = o.output !== undefined && o.output !== '-' && WINDOW_NAME.test(o.output);
  if (named && !o.checkpoint)
    throw new UsageError(
      say`{from} and {to} in -o name the window of a checkpointed run`,
      say`add --checkpoint FILE, or leave them out of -o`,
    );
  const writes = !o.dryRun && !o.count;
  // -o and the checkpoint as the files they really are (symlinks followed); a folder or a
  // device is refused before anything is asked of the server.
  let outPath = checkOutput(o);
  let output = o.output;
  const cpPath = o.checkpoint ? resolveTarget(o.checkpoint, '--checkpoint') : undefined;
  const notSame = () => {
    if (outPath && cpPath && sameFile(outPath, cpPath)) {
      throw new UsageError(
        say`--checkpoint and -o are the same file (${output}); the checkpoint would overwrite the export`,
        say`give the checkpoint a file of its own, e.g. --checkpoint sales.ckpt`,
      );
    }
  };
  notSame();
  if (cpPath && writes) lockCheckpoint(cpPath);
  const context = contextFrom(o);
  const userDomain: Domain | undefined = o.domain !== undefined ? parseDomain(o.domain) : undefined;
  const cp: Checkpoint | undefined = cpPath && !o.full ? loadCheckpoint(cpPath) : undefined;
  if (cp && outPath && !named && writes) refuseReplace(outPath, String(output), String(o.checkpoint), name);

  const session = await openSession({ ...o, odooContext: context }, io);
  const { client } = session;
  const tzShown = o.tz ?? session.profile.tz ?? machineZone();
  const flags: QueryFlags = {
    configId: o.configId,
    sessionId: o.sessionId,
    state: o.state ? list(o.state) : undefined,
    from: o.from,
    to: o.to,
    tz: tzShown,
    fields: o.fields !== undefined ? list(o.fields) : undefined,
    limit: o.limit,
    sort: o.sort,
    domain: userDomain,
  };
  if (o.fields !== undefined && flags.fields?.length === 0) {
    const f = await client.fieldsGet(resource.model);
    throw new UsageError(say`--fields is empty`, say`valid fields: ${nameList(Object.keys(f).sort())}`);
  }
  const fixed: Domain = orderId !== undefined ? [['order_id', '=', orderId]] : [];
  const prepared = await prepare(client, resource, flags, { fixed, withPayments: o.withPayments });
  if (orderId !== undefined) {
    const found = await client.read('pos.order', [orderId], ['name']);
    if (found.length === 0)
      throw new NotFoundError(
        say`sales ticket ${orderId} does not exist`,
        say`list ticket ids with posdata sales`,
      );
  }

  // The query's flags as typed: `--from 2h` or `today` resolve to another instant every run
  // and are still the same query. (Checkpoints made before hashed the resolved domain;
  // such a hash is still taken, and replaced at the next save.)
  const typed = {
    configId: o.configId ?? null,
    sessionId: o.sessionId ?? null,
    state: flags.state ?? null,
    from: o.from ?? null,
    to: o.to ?? null,
    zone: o.from !== undefined || o.to !== undefined ? tzShown : null,
    domain: userDomain ?? null,
  };
  const hash = queryHash([name, typed, prepared.query.fields, o.withPayments ?? false]);
  const legacyHash = queryHash([name, prepared.query.domain, prepared.query.fields, o.withPayments ?? false]);
  const server = `${session.url.href}|${client.db}`;
  if (cp && ((cp.query !== hash && cp.query !== legacyHash) || cp.server !== server)) {
    throw new UsageError(
      say`checkpoint ${o.checkpoint} was made for another query or server`,
      say`use a checkpoint file per query, or --full to start it again`,
    );
  }
  const overlap = o.overlap ?? 300;
  // The window ends at the server's time, which its write_date stamps follow: a client clock
  // ahead of Odoo's by more than --overlap would otherwise skip what was written meanwhile.
  const window = o.checkpoint ? windowFor(cp, overlap, client.serverNow(), o.checkpoint) : undefined;
  if (named && window && writes) {
    output = windowFileName(String(o.output), cp, window);
    outPath = resolveTarget(output);
    notSame();
    if (cp) refuseReplace(outPath, output, String(o.checkpoint), name);
  }

  if (o.count || o.dryRun) {
    const domain = window ? [...prepared.query.domain, ...window.domain] : prepared.query.domain;
    if (o.dryRun) {
      const call = {
        model: resource.model,
        method: 'search_read',
        domain,
        fields: prepared.query.fetchFields,
        order: window ? 'write_date, id' : prepared.query.order,
        page_size: o.pageSize ?? 2000,
        limit: prepared.query.limit ?? null,
        context: context ?? null,
      };
      process.stdout.write(`${JSON.stringify(call, null, 2)}\n`);
    } else {
      const n = await client.searchCount(resource.model, domain);
      process.stdout.write(`${o.limit !== undefined ? Math.min(n, o.limit) : n}\n`);
    }
    await client.close();
    return;
  }
  const toFile = output !== undefined && output !== '-';
  // A table shows registers by their own name: on 16/17 Odoo's label carries the session user.
  let names: Record<string, Map<number, string>> | undefined;
  if (format === 'table') {
    const regFields = prepared.outFields.filter((f) => prepared.defs[f]?.relation === 'pos.config');
    if (regFields.length > 0) {
      const regs = await client.searchRead('pos.config', [], {
        fields: ['name'],
        context: { active_test: false },
      });
      const m = new Map(regs.map((r) => [r.id, String(r.name)]));
      names = Object.fromEntries(regFields.map((f) => [f, m]));
    }
  }
  const sink = await openSink(outPath ?? output);
  const release = onInterrupt(() => sink.abort());
  const progress = new Progress(io, toFile || !io.stdoutTTY);
  progress.watch(session.limiter);
  let count = 0;
  let staged: Staged | undefined;
  /** What the checkpoint says after this run. */
  const nextCheckpoint = (w: Window): Checkpoint => {
    let windowEnd = w.windowEnd;
    if (o.limit !== undefined && received >= o.limit && lastWritten) {
      // Everything up to the previous window end was exported by earlier runs.
      windowEnd = cp && cp.windowEnd > lastWritten ? cp.windowEnd : lastWritten;
      if (cp && lastWritten <= cp.windowEnd && !io.quiet)
        io.err(
          `posdata: warning: --limit ${o.limit} ended within the overlap of the last run, so the checkpoint did not move on; raise --limit`,
        );
    }
    return {
      version: 1,
      resource: name,
      model: resource.model,
      server,
      query: hash,
      windowEnd,
      overlapSeconds: overlap,
      lastRunAt: new Date().toISOString(),
      lastCount: count,
    };
  };
  // With --limit the export may stop inside the window: the checkpoint then advances only
  // to the last record written (write_date order), and the next run goes on from there.
  let received = 0;
  let lastWritten: string | undefined;
  try {
    const renderer = await makeRenderer({
      format,
      sink,
      fields: prepared.outFields,
      defs: prepared.defs,
      excel: o.excel,
      delimiter: o.delimiter,
      decimal: o.decimal as '.' | ',' | undefined,
      io,
      tz: tzShown,
      preferred: o.fields ? [] : resource.tableColumns,
      sumField: prepared.outFields.includes(resource.sumField ?? '') ? resource.sumField : undefined,
      // A sales table totals what posdata summary counts: a cancelled or draft ticket is no sale.
      countedStates: name === 'sales' ? COUNTED_STATES : undefined,
      noun: name,
      toFile,
      names,
      normalizer: format === 'csv' || format === 'parquet' ? normalizerFor(prepared, o.tz) : undefined,
    });
    if (progress.enabled) {
      const domain = window ? [...prepared.query.domain, ...window.domain] : prepared.query.domain;
      const total = await client.searchCount(resource.model, domain);
      progress.start(o.limit !== undefined ? Math.min(total, o.limit) : total);
    }
    // The header waits for the first page: a refusal on the first read prints nothing.
    let begun = false;
    const begin = async () => {
      if (!begun) await renderer.begin();
      begun = true;
    };
    const seen = window ? new Set<number>() : undefined;
    const direct = renderer.pageRecords;
    for await (const { rows, records } of streamRows(client, prepared, {
      pageSize: o.pageSize ?? 2000,
      extraDomain: window?.domain,
      order: window ? 'write_date, id' : undefined,
      tz: o.tz,
      rows: direct === undefined,
    })) {
      // Within one run a record is written once, even if it moved while we read.
      const keep = seen
        ? records.map((r) => {
            if (seen.has(r.id)) return false;
            seen.add(r.id);
            return true;
          })
        : undefined;
      received += records.length;
      if (window && o.limit !== undefined) {
        for (let i = records.length - 1; i >= 0; i--) {
          if (keep && !keep[i]) continue;
          lastWritten = records[i]?.write_date as string | undefined;
          break;
        }
      }
      await begin();
      const before = count;
      if (direct) {
        const recs = keep ? records.filter((_, i) => keep[i]) : records;
        await direct(recs);
        count += recs.length;
      } else {
        const out = keep ? rows.filter((_, i) => keep[i]) : rows;
        await renderer.page(out);
        count += out.length;
      }
      progress.update(count);
      afterRecords(before, count);
    }
    await begin();
    await renderer.end();
    progress.done();
    // The checkpoint's new state is written first, then -o replaced, then the checkpoint:
    // a checkpoint that cannot be written leaves both as they were.
    // Checked again at the end: a file that appeared meanwhile is not replaced either.
    if (cp && outPath) refuseReplace(outPath, String(output), String(o.checkpoint), name);
    staged = cpPath && window ? stageCheckpoint(cpPath, nextCheckpoint(window)) : undefined;
    await sink.commit();
    staged?.commit();
  } catch (err) {
    progress.done();
    staged?.discard();
    await sink.abort();
    throw err;
  } finally {
    release();
  }
  if (toFile && !io.quiet && io.stderrTTY) io.err(`posdata: wrote ${count} ${name} to ${output}`);
  await client.close();
}
