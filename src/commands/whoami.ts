// `posdata whoami`: the profile, URL, database, login, user id, protocol and server version.
import { command } from '../cli/command.js';
import { CONNECTION, type ConnectionOptions, connectionOptions, GLOBAL, group } from '../cli/flags.js';
import { machineZone } from '../query/zone.js';
import type { Profile } from '../store/profiles.js';

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
      ...runZone(s.store.get(s.profileName) ?? {}),
      lang: user?.lang ?? null,
      store: s.store.path,
    };
    if (o.format === 'json') ctx.io.out.write(`${JSON.stringify(info, null, 2)}\n`);
    else {
      const w = Math.max(...Object.keys(info).map((k) => k.length));
      ctx.io.out.write(
        `${Object.entries(info)
          .filter(([k]) => k !== 'zone_from')
          .map(([k, v]) => `${k.padEnd(w)}  ${v ?? ''}${k === 'zone' ? ` (${info.zone_from})` : ''}`)
          .join('\n')}\n`,
      );
    }
  },
});

/**
 * The zone the profile's runs read their days and show their times in (zoneFor, without --tz),
 * and where it comes from: `tz` above is the Odoo user's as it is now, which is not the one
 * runs use when the shop's was given at login or the user's changed since.
 */
function runZone(p: Profile): { zone: string; zone_from: string } {
  if (p.zone) return { zone: p.zone, zone_from: 'login --tz' };
  if (p.tz) return { zone: p.tz, zone_from: "the Odoo user's, read at login" };
  return { zone: machineZone(), zone_from: "this machine's (no zone at login)" };
}
