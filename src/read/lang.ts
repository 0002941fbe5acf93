// --lang against the languages the Odoo server has installed: Odoo answers a language it
// does not have in English without a word, so a cron asking for French would get English.
import type { OdooClient } from '../core/client.js';
import { ServerError, UsageError } from '../core/errors.js';
import { nameList, say } from '../core/redact.js';
import type { OdooRecord } from '../core/types.js';

/**
 * Refuses a --lang this Odoo has not installed (exit 2), naming those it has. One
 * search_read of res.lang (Odoo keeps every language it knows, inactive until installed):
 * the language asked for, and the installed ones. Where Odoo refuses the read, the run goes on.
 */
export async function checkLang(client: OdooClient, lang: string): Promise<void> {
  let langs: OdooRecord[];
  try {
    langs = await client.searchRead('res.lang', ['|', ['code', '=', lang], ['active', '=', true]], {
      fields: ['code', 'active'],
      context: { active_test: false },
    });
  } catch (err) {
    if (err instanceof ServerError) return;
    throw err;
  }
  if (langs.some((l) => l.code === lang && l.active === true)) return;
  const installed = langs
    .filter((l) => l.active === true && typeof l.code === 'string')
    .map((l) => l.code as string)
    .sort();
  if (installed.length === 0) return;
  throw new UsageError(
    say`--lang ${lang} is not a language this Odoo has installed`,
    say`it has ${nameList(installed)}`,
  );
}
