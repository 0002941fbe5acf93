// `posdata whoami`: the profile, URL, database, login, user id, protocol and server version.
import { command } from '../cli/command.js';
import { CONNECTION, type ConnectionOptions, connectionOptions, GLOBAL, group } from '../cli/flags.js';

export interface WhoamiOptions extends ConnectionOptions {
  format?: 'text' | 'json';
}

export const whoami = command({
  name: 'whoami',
  flags: [
    group('own', [{ spec: '--format <fmt>', description: 'text or json', choices: ['text', 'json'] }]),
    CONNECTION,
    GLOBAL,
  ],
  examples: ['posdata whoami', 'posdata whoami --profile staging --format json'],
  options: (f): WhoamiOptions => ({ ...connectionOptions(f), format: f.format }),
  async run(o, ctx) {
    const s = await ctx.odoo(o);
    const uid = await s.client.ensureUid();
    const v = await s.client.version();
    const user = (await s.client.executeKw('res.users', 'context_get', [], {})) as {
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
      tz: user?.tz || null,
      lang: user?.lang ?? null,
      store: s.store.path,
    };
    if (o.format === 'json') ctx.io.out.write(`${JSON.stringify(info, null, 2)}\n`);
    else {
      const w = Math.max(...Object.keys(info).map((k) => k.length));
      ctx.io.out.write(
        `${Object.entries(info)
          .map(([k, v]) => `${k.padEnd(w)}  ${v ?? ''}`)
          .join('\n')}\n`,
      );
    }
  },
});
