// `posdata login`: authenticate against Odoo and store the profile. The secret comes from
// --password-stdin, --password-file, POSDATA_PASSWORD or a prompt on the terminal, never
// from a flag; it is masked from the moment it is read.
import { command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { CONNECTION, type ConnectionOptions, connectionOptions, GLOBAL, group } from '../cli/flags.js';
import type { IO } from '../cli/io.js';
import { InterruptedError, isPosdataError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { readSmallFile } from '../core/smallfile.js';
import { checkZone } from '../query/zone.js';
import { badProfileName, isProfileName, ProfileStore } from '../store/profiles.js';

export interface LoginOptions extends ConnectionOptions {
  /** The shop's zone, kept with the profile (checked before any request). */
  tz?: string;
  passwordStdin: boolean;
  passwordFile?: string;
  storePassword: boolean;
}

export const login = command({
  name: 'login',
  flags: [
    group('own', [
      { spec: '--password-stdin', description: 'read the password or API key from standard input' },
      {
        spec: '--password-file <file>',
        description: 'read the password or API key from a file (e.g. a systemd or container secret)',
        value: 'file',
      },
      {
        spec: '--no-store-password',
        description: 'keep the secret out of the store; later runs need POSDATA_PASSWORD',
      },
      {
        spec: '--tz <zone>',
        description:
          "the shop's IANA zone: its days and times in every run of this profile, whoever logs in (default: the Odoo user's zone; kept at the next login)",
        value: 'zone',
      },
    ]),
    CONNECTION,
    GLOBAL,
  ],
  examples: [
    'posdata login --url https://shop.example.com --db shop --user integration',
    'printf %s "$ODOO_KEY" | posdata login --url https://shop.example.com --db shop --user integration --password-stdin',
    'posdata login --profile staging --url https://staging.example.com --db shop --user admin',
  ],
  notes:
    '\nThe first profile stored becomes the default; logging in to another profile (--profile) leaves the\n' +
    'default as it is: use that one with --profile NAME, or make it the default with posdata profiles --use NAME.\n',
  options: (f): LoginOptions => ({
    ...connectionOptions(f),
    tz: f.tz === undefined ? undefined : checkZone(f.tz),
    passwordStdin: f.passwordStdin === true,
    passwordFile: f.passwordFile,
    storePassword: f.storePassword,
  }),
  run: runLogin,
});

async function runLogin(o: LoginOptions, ctx: Context): Promise<void> {
  const { io, env } = ctx;
  const { negotiateProtocol, makeHttp, makeTransport, resolveTarget, trace } = await import(
    '../cli/session.js'
  );
  const { OdooClient } = await import('../core/client.js');
  const store = await ProfileStore.open(env);
  const name = store.currentName(o.profile, env);
  if (!isProfileName(name)) throw badProfileName(name, 'cannot be stored');
  const prev = store.usable(name);
  const { url, db, login: user } = resolveTarget(o, env, prev);
  if (!url)
    throw new UsageError(
      say`login needs --url`,
      say`posdata login --url https://shop.example.com --db DB --user LOGIN`,
    );
  if (!db) throw new UsageError(say`login needs --db`, say`give the Odoo database name with --db`);
  if (!user) throw new UsageError(say`login needs --user`, say`give the Odoo login with --user`);
  let secret: string | undefined;
  if (o.passwordStdin) secret = await readAll(io);
  else if (o.passwordFile) {
    const hint = say`give a file that holds the password or API key alone`;
    try {
      // A regular file of at most 64 KiB: a named pipe with no writer, /dev/zero or a huge
      // file is refused, never waited on or read whole.
      secret = readSmallFile(o.passwordFile, 'the password file', 64 * 1024, hint).replace(/\r?\n$/, '');
    } catch (err) {
      if (isPosdataError(err)) throw err;
      throw new UsageError(
        say`cannot read the password file ${o.passwordFile}`,
        say`check the path and its permissions`,
      );
    }
  } else if (env.POSDATA_PASSWORD) secret = env.POSDATA_PASSWORD;
  else if (io.in.isTTY && io.err.isTTY)
    secret = await prompt(io, `Password or API key for ${user}@${url.host}: `);
  else
    throw new UsageError(say`no password given`, say`pipe it with --password-stdin or set POSDATA_PASSWORD`);
  if (!secret) throw new UsageError(say`the password is empty`, say`give the password or API key`);
  // Every line that names the profile would show *** for it (two such profiles, two identical
  // lines), and {profile} in -o, a chain's profile column and the store would carry the secret.
  if (secret.length >= 3 && name.includes(secret))
    throw new UsageError(
      say`the profile name holds the password`,
      say`choose another name with --profile; it is written in lines, paths and files`,
    );
  io.redactor.add(secret);

  const protocol = await negotiateProtocol(o.protocol, url, o, db, user, secret);
  const http = makeHttp(url, o, io);
  const transport = await makeTransport(protocol, http, db);
  const client = new OdooClient(transport, { db, login: user, secret }, undefined, {
    trace: trace(io),
    redactor: io.redactor,
  });
  const release = ctx.hold(client);
  try {
    const uid = await client.authenticate();
    const v = await client.version();
    const tz = await client.userZone();
    // Logging in to another profile never moves the default away from a profile that
    // exists: only a profile stored where there is no default yet (the first) becomes it.
    const before = store.defaultName();
    const becomesDefault = name !== before && !store.get(before);
    store.set(
      name,
      {
        url: url.href,
        db,
        login: user,
        secret: o.storePassword ? secret : undefined,
        uid,
        tz,
        // A shop's zone stays with its profile through a new secret (a rotated key).
        zone: o.tz ?? prev.zone,
        serverVersion: v.server_version,
        protocol,
        caFile: o.caFile ? (await import('node:path')).resolve(o.caFile) : undefined,
        loggedInAt: new Date().toISOString(),
      },
      becomesDefault,
    );
    if (!io.quiet) {
      const which =
        name === before
          ? own('')
          : becomesDefault
            ? own(' (now the default)')
            : say` (the default stays ${before}: use --profile ${name}, or posdata profiles --use ${name})`;
      const zone = o.tz ?? prev.zone;
      const days = zone === undefined || zone === tz ? own('') : say`; its days in ${zone}`;
      io.err.line(
        say`posdata: logged in to ${url.host} (database ${db}) as ${user}, uid ${uid}, Odoo ${v.server_version} over ${own(protocol)}; profile ${name}${which}${days}${own(o.storePassword ? '' : ' (secret not stored: set POSDATA_PASSWORD)')}`,
      );
    }
  } finally {
    release();
    await client.close();
  }
}

/** Standard input to its end, without the final newline. */
async function readAll(io: IO): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io.in.stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * Asks for the secret on the terminal without echoing it. Ctrl-C there interrupts (exit
 * 130), Ctrl-D (end of input) gives no password (exit 2); either way the cursor goes to the
 * next line, so the shell's prompt does not land after the question.
 */
async function prompt(io: IO, question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: io.in.stream, output: io.err.stream, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  let asked = false;
  out._writeToOutput = (s: string) => {
    // Echo the question, never the typed characters.
    if (!asked) {
      io.err.write(s);
      asked = true;
    }
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      rl.close();
      io.err.write('\n');
      done();
    };
    rl.on('SIGINT', () =>
      settle(() =>
        reject(new InterruptedError(say`interrupted at the password prompt`, say`nothing was stored`)),
      ),
    );
    rl.on('close', () =>
      settle(() =>
        reject(
          new UsageError(
            say`no password given (end of input at the prompt)`,
            say`type it at the prompt, pipe it with --password-stdin or set POSDATA_PASSWORD`,
          ),
        ),
      ),
    );
    rl.question(question, (answer) => settle(() => resolve(answer)));
  });
}
