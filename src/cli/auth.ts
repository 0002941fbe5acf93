// login, logout, whoami, profiles.
import { OdooClient } from '../core/client.js';
import { AuthError, InterruptedError, UsageError } from '../core/errors.js';
import { serverKey, showUrl } from '../core/http.js';
import { redactor, say } from '../core/redact.js';
import { ProfileStore } from '../store/profiles.js';
import {
  type ConnectionOptions,
  makeHttp,
  makeTransport,
  negotiateProtocol,
  openSession,
  resolveServerUrl,
  trace,
} from './connection.js';
import type { IO } from './io.js';

export interface LoginOptions extends ConnectionOptions {
  passwordStdin?: boolean;
  passwordFile?: string;
  storePassword?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * Asks for the secret on the terminal without echoing it. Ctrl-C there interrupts (exit
 * 130), Ctrl-D (end of input) gives no password (exit 2); either way the cursor goes to the
 * next line, so the shell's prompt does not land after the question.
 */
async function prompt(question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  let asked = false;
  out._writeToOutput = (s: string) => {
    // Echo the question, never the typed characters.
    if (!asked) {
      process.stderr.write(s);
      asked = true;
    }
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      rl.close();
      process.stderr.write('\n');
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

export async function login(o: LoginOptions, io: IO): Promise<void> {
  const env = process.env;
  const store = await ProfileStore.open(env);
  const name = store.currentName(o.profile, env);
  const prev = store.get(name) ?? {};
  const url = resolveServerUrl(o.url, env, prev.url, o.allowInsecureHttp);
  const db = o.db ?? env.POSDATA_DB ?? prev.db;
  const user = o.user ?? env.POSDATA_USER ?? prev.login;
  if (!url)
    throw new UsageError(
      say`login needs --url`,
      say`posdata login --url https://shop.example.com --db DB --user LOGIN`,
    );
  if (!db) throw new UsageError(say`login needs --db`, say`give the Odoo database name with --db`);
  if (!user) throw new UsageError(say`login needs --user`, say`give the Odoo login with --user`);
  let secret: string | undefined;
  if (o.passwordStdin) secret = await readStdin();
  else if (o.passwordFile) {
    try {
      const { readFileSync } = await import('node:fs');
      secret = readFileSync(o.passwordFile, 'utf8').replace(/\r?\n$/, '');
    } catch {
      throw new UsageError(
        say`cannot read the password file ${o.passwordFile}`,
        say`check the path and its permissions`,
      );
    }
  } else if (env.POSDATA_PASSWORD) secret = env.POSDATA_PASSWORD;
  else if (process.stdin.isTTY && process.stderr.isTTY)
    secret = await prompt(`Password or API key for ${user}@${url.host}: `);
  else
    throw new UsageError(say`no password given`, say`pipe it with --password-stdin or set POSDATA_PASSWORD`);
  if (!secret) throw new UsageError(say`the password is empty`, say`give the password or API key`);
  redactor.add(secret);

  const protocol = await negotiateProtocol(o.protocol, url, o, db, user, secret);
  const http = makeHttp(url, o, io);
  const transport = await makeTransport(protocol, http, db);
  const client = new OdooClient(transport, { db, login: user, secret }, undefined, { trace: trace(io) });
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
        secret: o.storePassword === false ? undefined : secret,
        uid,
        tz,
        serverVersion: v.server_version,
        protocol,
        caFile: o.caFile ? (await import('node:path')).resolve(o.caFile) : undefined,
        loggedInAt: new Date().toISOString(),
      },
      becomesDefault,
    );
    if (!o.quiet) {
      const which =
        name === before
          ? ''
          : becomesDefault
            ? ' (now the default)'
            : ` (the default stays ${before}: use --profile ${name}, or posdata profiles --use ${name})`;
      io.err(
        `posdata: logged in to ${url.host} (database ${db}) as ${user}, uid ${uid}, Odoo ${v.server_version} over ${protocol}; profile ${name}${which}${o.storePassword === false ? ' (secret not stored: set POSDATA_PASSWORD)' : ''}`,
      );
    }
  } finally {
    await client.close();
  }
}

export async function logout(
  o: { profile?: string; remove?: boolean; quiet?: boolean },
  io: IO,
): Promise<void> {
  const store = await ProfileStore.open();
  const name = store.currentName(o.profile);
  const done = o.remove ? store.remove(name) : store.forget(name);
  if (!done) throw new AuthError(say`no profile named ${name}`, say`list them with posdata profiles`);
  if (!o.quiet) io.err(`posdata: ${o.remove ? 'removed' : 'logged out of'} profile ${name}`);
}

export async function whoami(o: ConnectionOptions & { format?: string }, io: IO): Promise<void> {
  const s = await openSession(o, io);
  try {
    const uid = await s.client.ensureUid();
    const v = await s.client.version();
    const ctx = (await s.client.executeKw('res.users', 'context_get', [], {})) as {
      tz?: string | false;
      lang?: string;
    };
    const info = {
      profile: s.profileName,
      url: s.url.href,
      database: s.client.db,
      login: s.client.login,
      uid,
      protocol: s.protocol,
      server_version: v.server_version,
      tz: ctx?.tz || null,
      lang: ctx?.lang ?? null,
      store: s.store.path,
    };
    if (o.format === 'json') process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
    else {
      const w = Math.max(...Object.keys(info).map((k) => k.length));
      process.stdout.write(
        Object.entries(info)
          .map(([k, v]) => `${k.padEnd(w)}  ${v ?? ''}`)
          .join('\n') + '\n',
      );
    }
  } finally {
    await s.client.close();
  }
}

export async function profiles(o: { use?: string; remove?: string; quiet?: boolean }, io: IO): Promise<void> {
  const store = await ProfileStore.open();
  if (o.use) {
    if (!store.get(o.use))
      throw new UsageError(say`no profile named ${o.use}`, say`list them with posdata profiles`);
    store.use(o.use);
    if (!o.quiet) io.err(`posdata: profile ${o.use} is now the default`);
    return;
  }
  if (o.remove) {
    if (!store.remove(o.remove))
      throw new UsageError(say`no profile named ${o.remove}`, say`list them with posdata profiles`);
    if (!o.quiet) io.err(`posdata: removed profile ${o.remove}`);
    return;
  }
  const current = store.currentName();
  const all = store.list();
  const lines = Object.entries(all).map(
    ([n, p]) =>
      `${n === current ? '*' : ' '} ${n}\t${serverKey(p.url) ?? showUrl(p.url ?? '')}\t${p.db ?? ''}\t${p.login ?? ''}\t${p.secret ? 'secret stored' : 'no secret'}`,
  );
  process.stdout.write(lines.length ? `${lines.join('\n')}\n` : '');
}
