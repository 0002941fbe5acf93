// `posdata tap`: a Singer tap. The sync resources as streams, incremental on (write_date,
// id) from a STATE, for Meltano, Airflow, Dagster and any Singer target. Standard output
// carries messages only (one JSON per line); notices go to standard error.
import { SYNC_RESOURCES, syncFields } from '../catalog/resources.js';
import { command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { GLOBAL, group } from '../cli/flags.js';
import { VERSION } from '../cli/version.js';
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import type { Selection } from '../tap/catalog.js';
import type { TapConfig } from '../tap/config.js';
import type { TapState } from '../tap/state.js';

export type TapOptions =
  | { mode: 'about'; format: 'json' | 'text' }
  | { mode: 'discover'; config: TapConfig }
  | { mode: 'sync'; config: TapConfig; state: TapState; selection: Selection | undefined };

/** The overlap `posdata sync` re-reads before its watermark, in seconds. */
const OVERLAP_SECONDS = 300;

const SETTINGS: { name: string; kind: string; description: string; secret?: boolean }[] = [
  { name: 'url', kind: 'string', description: 'Odoo base URL, e.g. https://shop.example.com' },
  { name: 'db', kind: 'string', description: 'Odoo database' },
  { name: 'user', kind: 'string', description: 'Odoo login' },
  {
    name: 'password',
    kind: 'string',
    description: 'password or API key (or env POSDATA_PASSWORD, or the profile)',
    secret: true,
  },
  { name: 'profile', kind: 'string', description: 'a posdata profile (posdata login) instead of the above' },
  {
    name: 'start_date',
    kind: 'string',
    description: 'where a first run starts: RFC 3339, or a date in tz (default: everything)',
  },
  { name: 'tz', kind: 'string', description: 'zone of a start_date without an offset (default UTC)' },
  { name: 'page_size', kind: 'integer', description: 'records per request and per STATE (default 2000)' },
  { name: 'rate', kind: 'number', description: 'at most N requests a minute (default 60; 0: no limit)' },
  { name: 'timeout', kind: 'number', description: 'seconds per request (default 60)' },
  {
    name: 'streams',
    kind: 'array',
    description: `streams to read without a catalog: some of ${SYNC_RESOURCES.map((r) => r.name).join(', ')}`,
  },
];

function about(format: 'json' | 'text'): string {
  const capabilities = ['catalog', 'discover', 'state', 'about'];
  if (format === 'json') {
    const properties: Record<string, unknown> = {};
    for (const s of SETTINGS)
      properties[s.name] = {
        type: s.kind,
        description: s.description,
        ...(s.kind === 'array' ? { items: { type: 'string' } } : {}),
        ...(s.secret ? { secret: true, writeOnly: true } : {}),
      };
    return `${JSON.stringify(
      {
        // The plugin's name, as Meltano's taps give it (tap-posdata, the executable too).
        name: 'tap-posdata',
        description: 'Odoo point-of-sale data (sales, lines, payments, sessions, registers, products)',
        version: VERSION,
        capabilities,
        settings: { type: 'object', properties },
      },
      null,
      2,
    )}\n`;
  }
  const lines = [
    `tap-posdata ${VERSION}: a Singer tap of Odoo point-of-sale data`,
    `Capabilities: ${capabilities.join(', ')}`,
    `Streams: ${SYNC_RESOURCES.map((r) => r.name).join(', ')}`,
    'Settings (the config file):',
    ...SETTINGS.map((s) => `  ${s.name.padEnd(11)} ${s.description}`),
  ];
  return `${lines.join('\n')}\n`;
}

export const tap = command({
  name: 'tap',
  // Its target missed the end of the stream: never a quiet success.
  cutOutput: say`posdata: cannot write standard output: the Singer target closed it before the stream ended; see the target's own error`,
  flags: [
    group('own', [
      {
        spec: '--config <file>',
        description: 'the config (JSON): url, db, user, password, …',
        value: 'file',
      },
      { spec: '--state <file>', description: 'the last STATE value: go on from there', value: 'file' },
      {
        spec: '--catalog <file>',
        description: 'the catalog (from --discover) with the streams selected',
        value: 'file',
      },
      { spec: '--properties <file>', description: 'the catalog, in its older name', value: 'file' },
      { spec: '--discover', description: 'write the catalog of streams and fields, and exit' },
      { spec: '--about', description: 'what this tap is, its capabilities and settings' },
      { spec: '--format <format>', description: 'with --about: text or json', choices: ['text', 'json'] },
    ]),
    GLOBAL,
  ],
  examples: [
    'posdata tap --discover --config tap.json > catalog.json',
    'posdata tap --config tap.json --catalog catalog.json --state state.json | target-postgres',
    'posdata tap --about --format json',
  ],
  async options(f, _args, { io, env }): Promise<TapOptions> {
    if (f.about === true) return { mode: 'about', format: f.format === 'json' ? 'json' : 'text' };
    if (f.format !== undefined)
      throw new UsageError(say`--format goes with --about`, say`leave it out, or add --about`);
    const path = f.config;
    if (path === undefined)
      throw new UsageError(say`--config FILE is missing`, say`e.g. posdata tap --config tap.json`);
    const { readConfig } = await import('../tap/config.js');
    const config = readConfig(path, env);
    io.redactor.add(config.password);
    if (f.discover === true) {
      if (f.state !== undefined || f.catalog !== undefined || f.properties !== undefined)
        throw new UsageError(
          say`--discover takes --config only`,
          say`leave out --state, --catalog and --properties`,
        );
      return { mode: 'discover', config };
    }
    if (f.catalog !== undefined && f.properties !== undefined)
      throw new UsageError(say`--catalog and --properties are one catalog`, say`give one of them`);
    const { readState } = await import('../tap/state.js');
    const { readCatalog } = await import('../tap/catalog.js');
    const state = f.state !== undefined ? readState(f.state) : { bookmarks: {} };
    const catalog = f.catalog ?? f.properties;
    return {
      mode: 'sync',
      config,
      state,
      selection: catalog !== undefined ? readCatalog(catalog) : undefined,
    };
  },
  run: runTapCommand,
});

async function runTapCommand(o: TapOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { StreamSink, refuseClosedStdout } = await import('../sink/stdout.js');
  refuseClosedStdout(io.out.fd);
  const sink = new StreamSink(io.out.stream, io.out.fd);
  if (o.mode === 'about') {
    await sink.write(about(o.format));
    await sink.commit();
    return;
  }
  const { config } = o;
  const { openSession } = await import('../cli/session.js');
  // The secret by the config, else POSDATA_PASSWORD, else the profile's; url, db and user
  // by the config, else the environment, else the profile.
  const env = config.password !== undefined ? { ...ctx.env, POSDATA_PASSWORD: config.password } : ctx.env;
  const session = await openSession(
    {
      profile: config.profile,
      url: config.url,
      db: config.db,
      user: config.user,
      rate: config.rate,
      timeout: config.timeout,
    },
    io,
    env,
  );
  const client = session.client;
  const release = ctx.hold(client);
  ctx.atEnd(async () => {
    release();
    await client.close();
  });
  if (o.mode === 'discover') {
    const { catalogEntry } = await import('../tap/catalog.js');
    const { tapColumns, tapFields } = await import('../tap/schema.js');
    const streams = [];
    for (const r of SYNC_RESOURCES) {
      const defs = syncFields(r, await client.fieldsGet(r.model));
      streams.push(catalogEntry(r.name, tapColumns(tapFields(r, defs), defs)));
    }
    await sink.write(`${JSON.stringify({ streams }, null, 2)}\n`);
    await sink.commit();
    return;
  }
  const { runTap } = await import('../tap/sync.js');
  const names = config.streams;
  const streams = SYNC_RESOURCES.filter((r) =>
    o.selection ? o.selection.has(r.name) : names === undefined || names.includes(r.name),
  ).map((resource) => ({
    resource,
    deselected: o.selection?.get(resource.name)?.deselected ?? new Set<string>(),
  }));
  await runTap({
    client,
    streams,
    state: o.state,
    companies: await (await import('../read/companies.js')).runCompanyIds(client),
    startDate: config.startDate,
    pageSize: config.pageSize,
    overlapSeconds: OVERLAP_SECONDS,
    write: (text) => sink.write(text),
    log: io.quiet ? undefined : (line) => io.err.line(say`posdata tap: ${line}`),
    // Even with --quiet: a bookmark held back is news about the data.
    warn: (line) => io.err.line(say`posdata tap: ${line}`),
  }).catch(async (err: unknown) => {
    // The tap's page size is its config's page_size: it has no --page-size.
    const { CappedRead } = await import('../core/client.js');
    throw err instanceof CappedRead ? err.with((n) => say`"page_size": ${n} in the config`) : err;
  });
  await sink.commit();
}
