/** Access rules: which role may read, write, create or unlink a model, and Odoo's AccessError when not. */
import { accessError } from './errors.js';
import type { ModelDef } from './store.js';
import type { Env, Operation } from './types.js';

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
