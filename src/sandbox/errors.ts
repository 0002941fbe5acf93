/**
 * Odoo server exceptions as the wire shows them. `name` is the Python class path that ends up in
 * `error.data.name` (JSON-RPC) or in the JSON-2 error body; `status` is what JSON-2 answers with.
 */
export class OdooError extends Error {
  constructor(
    readonly pyName: string,
    message: string,
    readonly status = 500,
    /** JSON-2 werkzeug errors carry the HTTP status as a second argument. */
    readonly args: readonly (string | number)[] = [message],
    /** Last line of the trimmed traceback, as the recordings show. */
    readonly debugTail?: string,
  ) {
    super(message);
  }
}

export const userError = (msg: string): OdooError => new OdooError('odoo.exceptions.UserError', msg, 422);
export const valueError = (msg: string): OdooError => new OdooError('builtins.ValueError', msg, 500);
export const typeError = (msg: string): OdooError => new OdooError('builtins.TypeError', msg, 500);
export const accessError = (msg: string): OdooError => new OdooError('odoo.exceptions.AccessError', msg, 403);
export const accessDenied = (): OdooError =>
  new OdooError('odoo.exceptions.AccessDenied', 'Access Denied', 403);
export const missingError = (model: string, ids: readonly number[], uid: number): OdooError =>
  new OdooError(
    'odoo.exceptions.MissingError',
    `Record does not exist or has been deleted.\n(Record: ${model}(${ids.join(', ')},), User: ${uid})`,
    404,
  );

/** werkzeug HTTP exceptions used by JSON-2 (the status is repeated in `arguments`). */
export const httpError = (status: number, message: string): OdooError => {
  const names: Record<number, string> = {
    400: 'werkzeug.exceptions.BadRequest',
    401: 'werkzeug.exceptions.Unauthorized',
    404: 'werkzeug.exceptions.NotFound',
    415: 'werkzeug.exceptions.UnsupportedMediaType',
    422: 'werkzeug.exceptions.UnprocessableEntity',
  };
  return new OdooError(names[status] ?? 'werkzeug.exceptions.HTTPException', message, status, [
    message,
    status,
  ]);
};

/** Python's repr() of a JSON value, used in Odoo's messages such as "Invalid leaf ('x', '>>', 10)". */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    if (v.includes("'") && !v.includes('"')) return `"${v}"`;
    return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

/** A leaf as Odoo prints it: a tuple. */
export const leafRepr = (leaf: readonly unknown[]): string => `(${leaf.map(pyRepr).join(', ')})`;
