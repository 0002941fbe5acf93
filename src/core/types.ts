// Plain types of Odoo's data model as the wire shows it.

export type DomainLeaf = [string, string, unknown];
export type DomainTerm = DomainLeaf | '&' | '|' | '!';
export type Domain = DomainTerm[];

/** A record as Odoo returns it: `false` for empty, `[id, name]` for a many2one. */
export type OdooRecord = Record<string, unknown> & { id: number };

export type Many2one = [number, string] | false;

export interface FieldDef {
  type: string;
  string?: string;
  store?: boolean;
  relation?: string;
  selection?: [string, string][];
  digits?: [number, number] | false;
  required?: boolean;
  /** Odoo's own answer to "can a domain use it" (stored, or has a search method). */
  searchable?: boolean;
  /** The path of a related field; related fields are searchable even when not stored. */
  related?: string | false;
}

export type FieldMap = Record<string, FieldDef>;

export interface ServerVersion {
  server_version: string;
  server_serie: string;
  server_version_info: (string | number)[];
  protocol_version?: number;
}

/** The major version of Odoo (17 of 17.0, of saas~17.2 as well); NaN when it says none. */
export function majorVersion(v: ServerVersion): number {
  const first = v.server_version_info?.[0];
  return typeof first === 'number' ? first : Number.parseInt(String(first ?? '').replace(/^saas~/, ''), 10);
}

/** Keyword arguments of the ORM methods we call. */
export interface SearchReadKw {
  fields?: string[];
  limit?: number;
  offset?: number;
  order?: string;
  /** read()'s `load`: '' gives many2one values as bare ids instead of [id, name]. */
  load?: string;
  context?: Record<string, unknown>;
}
