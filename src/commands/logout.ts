// `posdata logout`: forget the stored secret and user id of a profile, or the whole profile.
import { command } from '../cli/command.js';
import { GLOBAL, group } from '../cli/flags.js';
import { AuthError } from '../core/errors.js';
import { say } from '../core/redact.js';
import { ProfileStore } from '../store/profiles.js';
import { forgetTarget } from '../store/remembered.js';

export interface LogoutOptions {
  profile?: string;
  remove: boolean;
}

export const logout = command({
  name: 'logout',
  flags: [
    group('own', [
      { spec: '--profile <name>', description: 'profile to log out of', value: 'profile' },
      { spec: '--remove', description: 'forget the whole profile, not only its secret' },
    ]),
    GLOBAL,
  ],
  examples: ['posdata logout', 'posdata logout --profile staging --remove'],
  options: (f): LogoutOptions => ({ profile: f.profile, remove: f.remove === true }),
  async run(o, { io, env }) {
    const store = await ProfileStore.open(env);
    const name = store.currentName(o.profile, env);
    const target = store.usable(name);
    const done = o.remove ? store.remove(name) : store.forget(name);
    if (!done) throw new AuthError(say`no profile named ${name}`, say`list them with posdata profiles`);
    // A profile removed takes what runs remembered of its server with it (a logout keeps it
    // for the next login).
    if (o.remove) forgetTarget(env, target, Object.values(store.list()));
    if (!io.quiet)
      io.err.line(
        o.remove ? say`posdata: removed profile ${name}` : say`posdata: logged out of profile ${name}`,
      );
  },
});
