// One command over several Odoo servers (`--profile a,b,c`, `--profile 'shop-*'`,
// `--all-profiles`): each profile's run is the command's own single run, in a context of its
// own (its session, its --rate, its standard output a temporary file), up to --jobs at once.
// What comes out is one output with the profile as its first column, the servers in the
// order given, each one's records whole and together; a server that fails is one line on
// standard error naming it, the others' data is complete, and the run ends with exit 8.
// Memory stays a single run's: each server's output waits in its own file, never in memory.
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ManyServersError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { serverKey } from '../core/url.js';
import type { CsvLead } from '../render/formats.js';
import { alive, HOST } from '../sink/atomic.js';
import { pendingFolders } from '../sink/pending.js';
import { badProfileName, isProfileName, ProfileStore, targetOf } from '../store/profiles.js';
import type { RememberedServer } from '../store/remembered.js';
import type { Command, ServerJoin } from './command.js';
import { type AfterWriting, type Context, type InChain, makeContext, type RunContext } from './context.js';
import type { Flags } from './flags.js';
import { type Env, type IO, makeIO, type Streams } from './io.js';
import { chooseFormat, writeOutput } from './output.js';
import { sayError } from './say-error.js';
import { csvLeadOf, type Join, makeJoiner } from './servers-join.js';

/** The placeholder of -o and --checkpoint that becomes each profile's name. */
const PLACEHOLDER = '{profile}';

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) {
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else re += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/**
 * The profiles named, in the order given (a pattern's matches in name order), each once. A
 * name that is not stored, or a pattern that matches none, is a usage error (exit 2): a
 * typo must not shrink a chain's morning silently.
 */
export function profileNames(f: Flags, store: ProfileStore): string[] {
  const stored = Object.keys(store.list()).sort();
  if (f.allProfiles === true) {
    if (f.profile !== undefined)
      throw new UsageError(say`--all-profiles and --profile name the servers twice`, say`give one of them`);
    if (stored.length === 0) throw new UsageError(say`no profile is stored`, say`run posdata login first`);
    return stored;
  }
  const names: string[] = [];
  for (const item of String(f.profile)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const matched = /[*?]/.test(item) ? stored.filter((n) => globToRegExp(item).test(n)) : [item];
    if (matched.length === 0 || (!/[*?]/.test(item) && !stored.includes(item)))
      throw new UsageError(
        say`--profile ${item} names no stored profile`,
        say`stored: ${own(stored.join(', ') || 'none')} (posdata profiles)`,
      );
    for (const n of matched) if (!names.includes(n)) names.push(n);
  }
  if (names.length === 0)
    throw new UsageError(say`--profile names no profile`, say`give --profile a,b or a pattern`);
  return names;
}

/** A value of -o or --checkpoint for one profile. */
function forProfile(v: unknown, name: string): unknown {
  return typeof v === 'string' ? v.split(PLACEHOLDER).join(name) : v;
}

/**
 * Every profile's name, where the run puts it into a path or a schema (`{profile}` in -o,
 * --checkpoint, --schema), must be a name login stores today (a name stored before, such as
 * `../x`, would put a file outside the folder), and no two profiles may land on one path: `Shop`
 * and `shop` are one file on a disk that ignores case, and two servers would overwrite each other.
 */
function checkPlaces(names: string[], values: (string | undefined)[]): void {
  const templates = values.filter((v): v is string => v?.includes(PLACEHOLDER) === true);
  if (templates.length === 0) return;
  for (const name of names) if (!isProfileName(name)) throw badProfileName(name, 'cannot be put into a path');
  for (const template of templates) {
    const seen = new Map<string, string>();
    for (const name of names) {
      const key = resolve(String(forProfile(template, name))).toLowerCase();
      const other = seen.get(key);
      if (other !== undefined)
        throw new UsageError(
          say`profiles ${other} and ${name} would write one file (${template}; names that differ in case only are one file on many disks)`,
          say`run them apart (--profile ${other}, then --profile ${name}), or log one in again under another name`,
        );
      seen.set(key, name);
    }
  }
}

/**
 * Two profiles of one Odoo database (one URL and database, the run's --url/--db applied as a
 * single run would) would be read as two shops and the chain's figures count that shop twice.
 * Refused, naming them, rather than read once: the two may be two users who see different
 * companies, and which one's view is the shop's is the user's choice, not posdata's.
 */
function checkOneDatabaseOnce(names: string[], store: ProfileStore, flags: Flags, env: Env): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    const given = {
      url: typeof flags.url === 'string' ? flags.url : undefined,
      db: typeof flags.db === 'string' ? flags.db : undefined,
    };
    const t = targetOf(given, env, store.get(name) ?? {});
    const url = serverKey(t.url);
    const db = t.db;
    if (url === undefined || db === undefined) continue;
    const key = `${url}\n${db}`;
    const other = seen.get(key);
    if (other !== undefined)
      throw new UsageError(
        say`profiles ${other} and ${name} are one Odoo database (${url}, database ${db}): its sales would count twice`,
        say`name one of them only (--profile with a list, or a pattern that leaves the other out)`,
      );
    seen.set(key, name);
  }
}

/** Standard error of one profile's run: each of its lines says which profile it is about. */
function prefixed(err: Writable, name: string): Writable {
  let pending = '';
  const line = (l: string) =>
    err.write(l.startsWith('posdata: ') ? `posdata: profile ${name}: ${l.slice(9)}\n` : `[${name}] ${l}\n`);
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) line(l.replace(/^\r\x1b\[K/, ''));
      done();
    },
    final(done) {
      if (pending) line(pending);
      done();
    },
  });
}

interface Outcome {
  name: string;
  /** The file its standard output went to (undefined: its output went to its own -o). */
  file: string | undefined;
  failed: boolean;
  /** A CSV its run wrote led by the profile's cell: the header it kept (CsvLead). */
  header?: string[];
}

/** What a run over several servers does, decided once from the chain's flags, as a single run would. */
interface Plan {
  names: string[];
  /** -o as one file of every server's rows (not `-`, no `{profile}`). */
  file: string | undefined;
  /** `{profile}` in -o: each server's run writes its own file, nothing is joined. */
  perFile: boolean;
  /** The command's own join of the servers' documents (report's one page). */
  own: ServerJoin | undefined;
  joining: Join;
  /** One server's flags. */
  flagsOf(name: string): Flags;
  /** A CSV join: what a server's run puts before each of its records. */
  leadOf?(name: string): CsvLead;
}

/** What a chain cannot do, said before any server is asked (exit 2). */
function refuse(c: Command<unknown>, flags: Flags, names: string[], output: string | undefined): void {
  const places = c.servers?.places ?? [];
  if (typeof flags.checkpoint === 'string' && !flags.checkpoint.includes(PLACEHOLDER) && names.length > 1)
    throw new UsageError(
      say`--checkpoint ${flags.checkpoint} would be one state for ${own(String(names.length))} servers`,
      say`put ${own(PLACEHOLDER)} in its path (e.g. --checkpoint state/${own(PLACEHOLDER)}.ckpt): one state per server`,
    );
  // Each server's checkpoint has its own window, which one joined file cannot be named by
  // (`{to}`), and a file of a fixed name would be replaced by the next run's window, as a single
  // run refuses. Standard output goes on (appended by the shell); the checkpoints move once it
  // is written (InChain.whenJoined).
  const joinedFile = output !== undefined && output !== '-' && !output.includes(PLACEHOLDER);
  if (typeof flags.checkpoint === 'string' && names.length > 1 && joinedFile)
    throw new UsageError(
      say`--checkpoint over several servers writes a file per server: -o needs ${own(PLACEHOLDER)}`,
      say`e.g. -o 'sales/${own(PLACEHOLDER)}-{to}.csv', or leave -o out and append standard output (>> sales.ndjson)`,
    );
  c.servers?.check?.(flags, names);
  checkPlaces(names, [output, typeof flags.checkpoint === 'string' ? flags.checkpoint : undefined]);
  for (const p of places) checkPlaces(names, [String(flags[p])]);
  if (flags.watch !== undefined)
    throw new UsageError(
      say`--watch follows one server`,
      say`run one watch per shop (--profile NAME), or leave --watch out for every shop's figures at once`,
    );
}

/** How the records' format joins: one CSV, one stream, one JSON array (each run's ndjson). */
function recordsJoin(format: string): Join {
  if (format === 'csv' || format === 'ndjson') return format;
  if (format === 'json') return 'json-from-ndjson';
  if (format === 'parquet')
    throw new UsageError(
      say`Parquet over several profiles is one file per server`,
      say`put ${own(PLACEHOLDER)} in -o (e.g. -o out/profile=${own(PLACEHOLDER)}/sales.parquet)`,
    );
  return 'blocks';
}

function planOf(c: Command<unknown>, flags: Flags, names: string[], io: IO): Plan {
  // Any command's flags: each is read for what it is (a command without -o has no output).
  const output = typeof flags.output === 'string' ? flags.output : undefined;
  const given = typeof flags.format === 'string' ? flags.format : undefined;
  const perFile = output?.includes(PLACEHOLDER) === true;
  refuse(c, flags, names, output);
  const how = c.servers?.join ?? 'records';
  const ownJoin = typeof how === 'object' && !perFile ? how : undefined;
  // A report (doctor's) is in the format asked, text by default; records in the one a single
  // run would write to this output; a command's own join, or a file per server, decides its own.
  const format =
    typeof how === 'object' || perFile
      ? undefined
      : how === 'reports'
        ? (given ?? 'text')
        : chooseFormat(given, output, io);
  const joining: Join =
    format === undefined
      ? 'blocks'
      : how === 'reports'
        ? format === 'json'
          ? 'json-documents'
          : 'blocks'
        : recordsJoin(format);
  const childFormat = joining === 'json-from-ndjson' ? 'ndjson' : format;
  const flagsOf = (name: string): Flags => {
    let f: Record<string, unknown> = { ...flags, profile: name, allProfiles: undefined, jobs: undefined };
    if (perFile) f.output = forProfile(output, name);
    else if (ownJoin) f = { ...ownJoin.flags({ ...f, output: undefined }) };
    else {
      f.output = undefined;
      if (how !== 'reports' || given !== undefined) f.format = childFormat;
    }
    if (typeof flags.checkpoint === 'string') f.checkpoint = forProfile(flags.checkpoint, name);
    for (const p of c.servers?.places ?? []) f[p] = forProfile(flags[p], name);
    return c.servers?.flags ? c.servers.flags(f) : f;
  };
  const file = output !== undefined && output !== '-' && !perFile ? output : undefined;
  const leadOf = joining === 'csv' ? (name: string) => csvLeadOf(name, flags) : undefined;
  return { names, file, perFile, own: ownJoin, joining, flagsOf, leadOf };
}

/**
 * `c` over the profiles named by `flags`: every run at once up to --jobs, their outputs
 * joined in the order given. Throws ManyServersError (exit 8) when some failed, after the
 * healthy ones' output is written whole.
 */
export async function runOverServers(
  c: Command<unknown>,
  flags: Flags,
  args: unknown[],
  ctx: Context,
): Promise<void> {
  const { io, env } = ctx;
  const store = ProfileStore.read(env);
  const names = profileNames(flags, store);
  if (c.servers?.sameDatabase !== true) checkOneDatabaseOnce(names, store, flags, env);
  const plan = planOf(c, flags, names, io);
  const seats = await checkEveryServer(c, plan, flags, args, ctx);
  const temp = serversFolder();
  const children = new Set<RunContext>();
  const release = ctx.onInterrupt(() => {
    for (const child of children) child.interrupt();
  });
  const seen: [string, RememberedServer][] = [];
  const remember = (key: string, one: RememberedServer) => seen.push([key, one]);
  // What each server's run does once its output is whole (a checkpoint moved on), where that
  // output is the joined one: done once it is written, given up if it is not.
  const afterJoin: AfterWriting[] = [];
  const whenJoined = plan.perFile ? undefined : (a: AfterWriting) => afterJoin.push(a);
  const runOne = serverRun(c, plan, seats, ctx, { temp, children, store, remember, whenJoined });
  const outcomes = started(names, typeof flags.jobs === 'number' ? flags.jobs : 4, runOne);
  try {
    const done = await joined(plan, await outcomes, flags, ctx);
    for (const a of afterJoin.splice(0)) a.committed?.();
    sayFailed(done, names);
  } finally {
    for (const a of afterJoin.splice(0)) a.aborted?.();
    release();
    await Promise.allSettled(await outcomes);
    rmSync(temp, { recursive: true, force: true });
    pendingFolders.delete(temp);
    // What completion may offer next time: every server's, the file written once (best effort,
    // as a single run's: the chain's own outcome stands).
    if (seen.length > 0)
      try {
        (await import('../store/remembered.js')).rememberAll(env, seen);
      } catch {
        /* a Tab's offers, not the run */
      }
  }
}

/**
 * One server's place in the chain, made before any server is asked: its IO (standard error led
 * by its profile; standard output given when its run starts) and its options, worked out once
 * with that IO, as its run reads them.
 */
interface Seat {
  io: IO;
  err: Writable;
  /** Where its standard output goes, once its run starts. */
  out(stream: Writable): void;
  options: unknown;
}

/**
 * Every flag checked once, and each server's, before any server is asked (exit 2 for what is
 * wrong). Each server's options are worked out here with the IO its run will have, and kept
 * for its run: the run worked them out again (a luxon range, a zone, per server).
 */
async function checkEveryServer(
  c: Command<unknown>,
  plan: Plan,
  flags: Flags,
  args: unknown[],
  { io, env }: { io: IO; env: Env },
): Promise<Map<string, Seat>> {
  if (plan.own) await plan.own.check(flags, { io, env });
  const seats = new Map<string, Seat>();
  for (const name of plan.names) {
    const f = plan.flagsOf(name);
    if (plan.perFile && typeof f.output === 'string') mkdirSync(dirname(f.output), { recursive: true });
    const err = prefixed(io.err.stream, name);
    const streams = serverStreams(io, err);
    const childIO = serverIO(io, streams, env, c.servers?.speaks === true);
    try {
      const options = await c.options(f, args, { io: childIO, env });
      seats.set(name, { io: childIO, err, out: (s) => (streams.stdout = s), options });
    } finally {
      // What the server's options registered (a database's password) masks the chain's lines too.
      io.redactor.adopt(childIO.redactor);
    }
  }
  return seats;
}

/**
 * One server's run: the command's single run in a context of its own, its standard output a
 * file in `temp` (or its own -o), its standard error led by its profile, a failure said there
 * as a single run's would be and kept in the outcome.
 */
function serverRun(
  c: Command<unknown>,
  plan: Plan,
  seats: Map<string, Seat>,
  ctx: Context,
  at: {
    temp: string;
    children: Set<RunContext>;
    store: ProfileStore;
    remember: InChain['remember'];
    whenJoined: InChain['whenJoined'];
  },
): (name: string, index: number) => Promise<Outcome> {
  const { io, env } = ctx;
  return async (name, index) => {
    const seat = seats.get(name) as Seat;
    const { io: childIO, err } = seat;
    const file = plan.perFile ? undefined : join(at.temp, `${index}.out`);
    const out = file ? createWriteStream(file) : new Writable({ write: (_c, _e, done) => done() });
    seat.out(out);
    // Joined with the others' output, its names must mean one thing across them (Context.inChain);
    // a file of its own ({profile} in -o) is its single run's.
    const lead = plan.leadOf?.(name);
    const child = makeContext(childIO, env, {
      joined: !plan.perFile,
      csvLead: lead,
      store: at.store,
      remember: at.remember,
      whenJoined: at.whenJoined,
    });
    at.children.add(child);
    let failed = false;
    try {
      await c.run(seat.options, child);
    } catch (e) {
      failed = true;
      sayError(e, childIO, io.debug);
    } finally {
      await child.end();
      at.children.delete(child);
      await new Promise<void>((resolve) => out.end(resolve));
      await new Promise<void>((resolve) => err.end(resolve));
    }
    return { name, file, failed, header: lead?.header };
  };
}

/** The chain's end when some servers failed: exit 8, naming them (each said its own line). */
function sayFailed(done: Outcome[], names: string[]): void {
  const failed = done.filter((o) => o.failed).map((o) => o.name);
  if (failed.length > 0)
    throw new ManyServersError(
      say`${own(String(failed.length))} of ${own(String(names.length))} servers failed (${own(failed.join(', '))}); the others' data is complete`,
      say`see the lines above for each, fix it and run those again with --profile ${own(failed.join(','))}`,
    );
}

const FOLDER = 'posdata-servers-';

/**
 * The folder the servers' outputs wait in: named by this process (`posdata-servers-<pid>-<host>-…`),
 * removed by a signal's handler as the temporary files are (SIGTERM left every server's partial
 * output behind), and the folders of runs of this machine that are gone (SIGKILL) swept first.
 */
function serversFolder(): string {
  const root = tmpdir();
  let names: string[] = [];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(FOLDER));
  } catch {
    /* no temporary folder to look in: mkdtemp says so */
  }
  for (const name of names) {
    const owner = /^(\d+)-([0-9a-f]{6})-/.exec(name.slice(FOLDER.length));
    if (owner?.[2] === HOST && Number(owner[1]) !== process.pid && !alive(Number(owner[1])))
      rmSync(join(root, name), { recursive: true, force: true });
  }
  const temp = mkdtempSync(join(root, `${FOLDER}${process.pid}-${HOST}-`));
  pendingFolders.add(temp);
  return temp;
}

/** A server's streams, its standard output set when its run starts. */
type ServerStreams = Omit<Streams, 'stdout'> & { stdout: Writable };

/** A server's streams: its standard error given, its standard output a sink until its run starts. */
function serverStreams(io: IO, err: Writable): ServerStreams {
  return {
    stdin: Readable.from([]),
    stdout: new Writable({ write: (_c, _e, done) => done() }),
    stderr: err,
    inTTY: false,
    outTTY: false,
    errTTY: false,
    columns: io.out.width,
  };
}

/** A server's IO over its streams: no terminal, quiet unless the command speaks. */
function serverIO(io: IO, streams: ServerStreams, env: Env, speaks: boolean): IO {
  const childIO: IO = makeIO(streams, { ...env, NO_COLOR: '1' });
  childIO.quiet = speaks ? io.quiet : true;
  childIO.debug = io.debug;
  return childIO;
}

/**
 * Every server's run started, up to `jobs` at once (the next when one of the running ends);
 * the outcomes in the order given, once all have started.
 */
async function started(
  names: string[],
  jobs: number,
  runOne: (name: string, index: number) => Promise<Outcome>,
): Promise<Promise<Outcome>[]> {
  const running = new Set<Promise<Outcome>>();
  const all: Promise<Outcome>[] = [];
  for (const [i, name] of names.entries()) {
    while (running.size >= jobs) await Promise.race(running);
    const p = runOne(name, i);
    running.add(p);
    void p.finally(() => running.delete(p));
    all.push(p);
  }
  return all;
}

/** The servers' outputs made one, as the plan says; every outcome, in the order given. */
async function joined(
  plan: Plan,
  outcomes: Promise<Outcome>[],
  flags: Flags,
  ctx: Context,
): Promise<Outcome[]> {
  if (plan.perFile) return Promise.all(outcomes);
  if (plan.own) {
    // A document is a server's figures, not its records (a report: a few hundred KB): read whole.
    const done = await Promise.all(outcomes);
    const docs = done.flatMap((o) =>
      !o.failed && o.file ? [{ profile: o.name, text: readFileSync(o.file, 'utf8') }] : [],
    );
    const failed = done.filter((o) => o.failed).map((o) => o.name);
    if (docs.length > 0) await plan.own.join(docs, failed, flags, ctx);
    return done;
  }
  const done: Outcome[] = [];
  await writeOutput(
    ctx,
    plan.file,
    async (sink) => {
      const joiner = makeJoiner(plan.joining, flags, sink);
      if (joiner.prepare) {
        const all = await Promise.all(outcomes);
        await joiner.prepare(
          all.flatMap((o) => (o.failed || !o.file ? [] : [{ name: o.name, file: o.file, header: o.header }])),
        );
      }
      for (const o of outcomes) {
        const got = await o;
        done.push(got);
        if (!got.failed && got.file) await joiner.add({ name: got.name, file: got.file, header: got.header });
      }
      await joiner.end();
      return undefined;
    },
    plan.joining === 'blocks',
  );
  return done;
}
