// A register or session named by --config-id or --session-id that nothing matched must exist,
// or the run is exit 4: a mistyped id in a cron job would otherwise export nothing, with
// success, for ever. Asked only when nothing matched (a record found is its register's and
// session's proof), so it costs no request where there is data.
import type { OdooClient } from '../core/client.js';
import { NotFoundError } from '../core/errors.js';
import { say } from '../core/redact.js';

export interface NamedIds {
  configId?: number;
  sessionId?: number;
}

/**
 * Throws NotFoundError for a register or session that does not exist. `read` finds an archived
 * register too; it reads `name`, since Odoo answers a read of `id` alone with any id it is given.
 */
export async function mustExist(client: OdooClient, ids: NamedIds): Promise<void> {
  const missing = async (model: string, id: number | undefined): Promise<boolean> =>
    id !== undefined && (await client.read(model, [id], ['name'])).length === 0;
  if (await missing('pos.config', ids.configId))
    throw new NotFoundError(
      say`register ${ids.configId} does not exist`,
      say`list the registers with posdata configs`,
    );
  if (await missing('pos.session', ids.sessionId))
    throw new NotFoundError(
      say`session ${ids.sessionId} does not exist`,
      say`list the sessions with posdata closures, or a register's open one with posdata configs`,
    );
}
