/** Shapes shared by the sandbox modules (the sandbox shares no code with the client). */

export const FIELD_TYPES = [
  'char',
  'text',
  'integer',
  'float',
  'monetary',
  'boolean',
  'date',
  'datetime',
  'selection',
  'many2one',
  'one2many',
  'many2many',
  'binary',
  'html',
  'json',
  'properties',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** What a record holds for a field. `undefined` = not held; the field's default applies. */
export type Stored = string | number | boolean | number[] | undefined;

/** One row. Datetimes are held as Odoo's wire strings (`YYYY-MM-DD HH:MM:SS`, UTC) so they compare as text. */
export interface Rec {
  id: number;
  [field: string]: Stored;
}

/** A JSON value as it goes on the wire. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The Odoo series the sandbox can present (16 and 18 from the fact sheet, 17 and 19 also from recordings). */
export type OdooVersion = 16 | 17 | 18 | 19;

export type Role = 'manager' | 'user' | 'clerk';

export type Operation = 'read' | 'write' | 'create' | 'unlink';

/** The request environment: who calls, and the context keys the sandbox honours. */
export interface Env {
  uid: number;
  role: Role;
  /** context.active_test (default true): hide archived records from search. */
  activeTest: boolean;
  /** The companies this call sees (allowed_company_ids, else the user's): Odoo's record rules. */
  companies?: number[];
  /** context.tz, else the user's tz: used by Odoo 19 for date-only domain values. */
  tz: string | false;
  /**
   * The zone read_group buckets datetimes in: `context.tz` only over JSON-RPC (execute_kw starts
   * from an empty context), the user's zone unless the context gives one over JSON-2 (the request
   * environment carries the user's context).
   */
  groupTz: string | false;
  /** The server's clock, whole seconds (what Odoo's `fields.Datetime.now()` gives). */
  now: () => string;
  /**
   * The request's transaction time with microseconds (PostgreSQL's `now()`), the same for every
   * record the request creates or writes: their `create_date`/`write_date`.
   */
  txNow: () => string;
}
