/** Access rules: which role may read, write, create or unlink a model, and Odoo's AccessError when not. */
import { companyRule, rowReader } from './domain.js';
import { accessError } from './errors.js';
import type { Db, ModelDef } from './store.js';
import type { Env, Operation, Rec } from './types.js';

export function checkAccess(model: ModelDef, env: Env, op: Operation): void {
  const letter = op === 'read' ? 'r' : op === 'write' ? 'w' : op === 'create' ? 'c' : 'u';
  if (model.acl[env.role].includes(letter)) return;
  const verb = op === 'read' ? 'access' : op === 'write' ? 'modify' : op === 'create' ? 'create' : 'delete';
  const groups = model
    .groups(op)
    .map((g) => `\t- ${g}`)
    .join('\n');
  throw accessError(
    `You are not allowed to ${verb} '${model.description}' (${model.name}) records.\n\nThis operation is allowed for the following groups:\n${groups}\n\nContact your administrator to request access if necessary.`,
  );
}

/**
 * Odoo's record rules on a read of given ids (check_access_rule): a record of a company the call
 * does not see makes the whole read fail with the AccessError Odoo gives outside debug mode (it
 * names the model, not the records). Searches leave such records out instead (companyRule).
 */
export function checkRecordRules(db: Db, env: Env, model: ModelDef, recs: readonly Rec[]): void {
  const rule = companyRule(db, env, model, rowReader(db));
  if (!rule || recs.every((r) => rule(r.id))) return;
  throw accessError(
    `Uh-oh! Looks like you have stumbled upon some top-secret records.\n\nSorry, ${db.displayName('res.users', env.uid)} (id=${env.uid}) doesn't have 'read' access to:\n- ${model.description} (${model.name})\n\nIf you really, really need access, perhaps you can win over your friendly administrator with a batch of freshly baked cookies.`,
  );
}
