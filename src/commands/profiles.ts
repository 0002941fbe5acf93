// `posdata profiles`: list the stored profiles; --use makes one the default, --remove forgets one.
import { command } from '../cli/command.js';
import { GLOBAL, group } from '../cli/flags.js';
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import { serverKey, showUrl } from '../core/url.js';
import { ProfileStore } from '../store/profiles.js';

export interface ProfilesOptions {
  use?: string;
  remove?: string;
}

export const profiles = command({
  name: 'profiles',
  flags: [
    group('own', [
      { spec: '--use <name>', description: 'make this profile the default', value: 'profile' },
      { spec: '--remove <name>', description: 'forget this profile', value: 'profile' },
    ]),
    GLOBAL,
  ],
  examples: ['posdata profiles', 'posdata profiles --use staging'],
  options: (f): ProfilesOptions => ({ use: f.use, remove: f.remove }),
  async run(o, { io, env }) {
    const store = await ProfileStore.open(env);
    if (o.use) {
      if (!store.get(o.use))
        throw new UsageError(say`no profile named ${o.use}`, say`list them with posdata profiles`);
      store.use(o.use);
      if (!io.quiet) io.err.line(say`posdata: profile ${o.use} is now the default`);
      return;
    }
    if (o.remove) {
      if (!store.remove(o.remove))
        throw new UsageError(say`no profile named ${o.remove}`, say`list them with posdata profiles`);
      if (!io.quiet) io.err.line(say`posdata: removed profile ${o.remove}`);
      return;
    }
    const current = store.currentName(undefined, env);
    const lines = Object.entries(store.list()).map(
      ([n, p]) =>
        `${n === current ? '*' : ' '} ${n}\t${serverKey(p.url) ?? showUrl(p.url ?? '')}\t${p.db ?? ''}\t${p.login ?? ''}\t${p.secret ? 'secret stored' : 'no secret'}`,
    );
    if (lines.length === 0) {
      // Nothing on stdout (a script sees no profile), a word for the person on stderr.
      if (!io.quiet) io.err.line(say`posdata: no profile stored yet; run posdata login to make one`);
      return;
    }
    io.out.write(`${lines.join('\n')}\n`);
  },
});
