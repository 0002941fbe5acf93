// JSON schemas of the service, generated from the resource table: the query parameters a
// path accepts (the commands' flags, snake_case), the records it answers, the problem
// documents. Fastify validates requests with them and @fastify/swagger writes the OpenAPI
// document from the same objects, so the documentation cannot drift from the checks.
import { ORDER_STATES_HELP, RESOURCES, type Resource, type ResourceName } from '../catalog/resources.js';
import { CLOSED_FROM, CLOSED_TO, DATE, DAY_STARTS, FROM, queryParams, TO, TODAY } from '../query/period.js';
import { AMOUNT_KEYS } from '../reconcile/compute.js';
import { FIGURES } from '../summary/figures.js';
import { KEY_COLUMNS, KEYS } from '../summary/keys.js';
import { COMPANY_PARAM } from './companies.js';

type Schema = Record<string, unknown>;

/** A text parameter: given, not empty. */
function text(description: string, minLength = 1): Schema {
  return { type: 'string', minLength, description };
}

/** Odoo ids are PostgreSQL integers. */
const ID = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

/** The query parameters of one resource's path, as the command's flags apply to it. */
export function querySchema(r: Resource): Schema {
  const ff = r.filterFields;
  const props: Record<string, Schema> = {};
  if (ff.config) props.config_id = { ...ID, description: `one register (${ff.config} = N)` };
  if (ff.session) props.session_id = { ...ID, description: `one session (${ff.session} = N)` };
  if (ff.state) props.state = text(`order states, comma-separated: ${ORDER_STATES_HELP}`);
  if (ff.time) {
    props.from = text(
      `from this time on ${ff.time}: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, yesterday, 2h, 7d (read in tz)`,
    );
    props.to = text('up to this time; a date-only value includes that whole day');
  }
  props.tz = text(
    "IANA zone for from/to and for the datetimes answered (ISO 8601 with offset). Default: from/to in the Odoo user's zone, datetimes in UTC as Odoo stores them",
  );
  props.fields = text(`fields to return, comma-separated (default: ${r.defaultFields.join(',')})`);
  // The example fills the docs page's form, so that trying a path there does not pour
  // every record into the browser; the service itself has no default limit.
  // At most 2^31-1, Odoo's (and PostgreSQL's integer) range: a larger number would reach
  // Odoo as a query it fails on (502), or lose its digits past 2^53 on the way.
  props.limit = {
    type: 'integer',
    minimum: 1,
    maximum: 2147483647,
    description: 'at most N records (default: all, streamed)',
    examples: [100],
  };
  props.offset = {
    type: 'integer',
    minimum: 0,
    maximum: 2147483647,
    description: 'skip the first N records',
  };
  props.order = text('sort, as Odoo\'s order: "date_order desc, id" (default: id)');
  props.domain = text(
    'an extra Odoo domain as JSON, ANDed with the other filters: [["amount_total",">",100]]',
    2,
  );
  props.company = COMPANY_PARAM;
  if (r.name === 'sales')
    props.with_payments = {
      type: 'boolean',
      description: 'each order carries its payments with method names',
    };
  return { type: 'object', properties: props, additionalProperties: false };
}

const MANY2ONE = {
  description: '[id, display name], or null',
  anyOf: [
    {
      type: 'array',
      prefixItems: [{ type: 'integer' }, { type: 'string' }],
      minItems: 2,
      maxItems: 2,
    },
    { type: 'null' },
  ],
};

/** The JSON type of a default field, from its name (the server's fields_get decides at run time). */
function fieldSchema(name: string): Schema {
  if (name === 'id') return { type: 'integer' };
  if (name.endsWith('_ids')) return { type: 'array', items: { type: 'integer' } };
  if (name.endsWith('_id')) return MANY2ONE;
  if (/date|_at$/.test(name))
    return {
      type: ['string', 'null'],
      description: 'UTC "YYYY-MM-DD HH:MM:SS"; ISO 8601 with offset when tz is given',
    };
  if (/^(amount|price_|cash_|list_price|total_|last_session_closing_cash|qty|discount)/.test(name))
    return { type: ['number', 'null'] };
  return { type: ['string', 'null'] };
}

export function recordSchema(r: Resource): Schema {
  const props: Record<string, Schema> = {};
  for (const f of r.defaultFields) props[f] = fieldSchema(f);
  return {
    type: 'object',
    description: `A ${r.model} record: the default fields below, or those asked for with fields. Keys in the order asked for.`,
    properties: props,
    additionalProperties: true,
  };
}

export const PROBLEM_SCHEMA: Schema = {
  type: 'object',
  description: 'RFC 9457 problem details (application/problem+json)',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
  },
  required: ['type', 'title', 'status', 'detail', 'instance'],
};

export function problemResponse(description: string): Schema {
  return { description, content: { 'application/problem+json': { schema: PROBLEM_SCHEMA } } };
}

/** The error answers every data path can give. */
export const DATA_ERRORS: Record<string, Schema> = {
  400: problemResponse('a query parameter is not valid (unknown field, bad date, bad zone, …)'),
  401: problemResponse('no token, or an unknown, revoked or expired one'),
  403: problemResponse("Odoo refused access with this user's rights"),
  405: problemResponse('another method than GET on this path; see Allow'),
  421: problemResponse(
    'a Host this service does not answer (bound to loopback: a loopback name, or one of --allow-host)',
  ),
  429: problemResponse('over the per-token rate limit; see Retry-After'),
  502: problemResponse('Odoo unreachable, or its reply was not valid'),
  504: problemResponse('Odoo did not answer in time'),
};

export function listResponses(r: Resource): Schema {
  return {
    200: {
      description: 'a JSON array of records, as `posdata <command> --format json` prints them (streamed)',
      content: { 'application/json': { schema: { type: 'array', items: recordSchema(r) } } },
    },
    ...DATA_ERRORS,
    ...(r.name === 'lines' ? { 404: problemResponse('no sales ticket with this id') } : {}),
  };
}

export const RECONCILE_QUERY: Schema = {
  type: 'object',
  properties: {
    ...queryParams([DATE, CLOSED_FROM, CLOSED_TO]),
    config_id: { ...ID, description: 'one register' },
    company: COMPANY_PARAM,
    tz: text(
      "IANA zone of the business day and of opened/closed (default: the Odoo user's zone for the day, UTC times)",
    ),
  },
  additionalProperties: false,
};

/** /api/v1/books: reconcile's range, and the books' own parameters. */
export const BOOKS_QUERY: Schema = {
  ...RECONCILE_QUERY,
  properties: {
    ...(RECONCILE_QUERY.properties as Record<string, Schema>),
    tolerance: {
      type: 'number',
      minimum: 0,
      description: 'differences up to this agree (default 0: to the cent)',
    },
    pos_only: { type: 'boolean', description: 'the POS side alone, for a user without accounting rights' },
  },
};

/** A closed session's row: the session and its register, by id and by name. */
const SESSION_COLUMNS: Record<string, Schema> = {
  session_id: { type: 'integer' },
  session: { type: 'string' },
  config_id: { type: 'integer' },
  register: { type: 'string' },
};

const MONEY_OR_NULL: Schema = { type: ['number', 'null'] };

export const BOOKS_RESPONSES: Record<string, Schema> = rowsResponses(
  "one row per line of each closed session's books (sales, taxes, payment: <method>, invoice payments, invoices, cash difference, closing balance, other lines, entry), as `posdata books --format json` prints them; every row names its company and currency",
  {
    company_id: { type: ['integer', 'null'] },
    company: { type: ['string', 'null'] },
    currency: { type: ['string', 'null'] },
    ...SESSION_COLUMNS,
    closed: { type: ['string', 'null'] },
    entry: { type: ['string', 'null'], description: "the session's journal entry" },
    entry_state: { type: ['string', 'null'], description: 'posted, draft, cancel or missing' },
    journal: { type: ['string', 'null'] },
    line: { type: 'string' },
    pos: MONEY_OR_NULL,
    books: MONEY_OR_NULL,
    difference: { ...MONEY_OR_NULL, description: 'books - pos' },
    agrees: { type: 'boolean' },
    note: { type: ['string', 'null'] },
  },
);

/** A 200 of an array of rows with these properties, and the errors every data path gives. */
function rowsResponses(
  description: string,
  properties: Record<string, Schema>,
  more: Schema = {},
): Record<string, Schema> {
  return {
    200: {
      description,
      content: {
        'application/json': { schema: { type: 'array', items: { type: 'object', properties, ...more } } },
      },
    },
    ...DATA_ERRORS,
  };
}

/** The columns that lead a row where the figures are split by company or currency. */
const SPLIT_COLUMNS: Record<string, Schema> = {
  company_id: { type: 'integer', description: 'where split by company' },
  company: { type: 'string', description: 'where split by company' },
  currency: {
    type: 'string',
    description: "the currency code of the row's amounts, where split",
  },
};

export const RECONCILE_RESPONSES: Record<string, Schema> = rowsResponses(
  'one row per closed session, as `posdata reconcile --format json` prints them. Where the companies read keep several currencies, the sessions are per company and each row leads with company_id, company and currency: no figure adds two currencies',
  {
    ...SPLIT_COLUMNS,
    ...SESSION_COLUMNS,
    opened: { type: ['string', 'null'] },
    closed: { type: ['string', 'null'] },
    // The cash figures reconcile's rows are written with, in their order.
    ...Object.fromEntries(AMOUNT_KEYS.map((k) => [k, { type: 'number' }])),
  },
  {
    additionalProperties: {
      type: 'number',
      description: 'method:<name>: the total taken by that method',
    },
  },
);

export const SUMMARY_QUERY: Schema = {
  type: 'object',
  properties: {
    ...queryParams([TODAY, FROM, TO]),
    config_id: { ...ID, description: 'one register' },
    session_id: {
      ...ID,
      description: 'one session: the X report (open) or Z report (closed), with its cash',
    },
    by: text(
      `group keys, comma-separated: ${KEYS.join(', ')} (default register); company and currency split the figures by company or currency (each row then leads with company_id, company, currency)`,
    ),
    company: COMPANY_PARAM,
    top: { ...ID, description: 'only the N groups with the largest total' },
    ...queryParams([DAY_STARTS]),
    tz: text("IANA zone of the business day (default: the Odoo user's zone)"),
  },
  additionalProperties: false,
};

const NUM_OR_NULL = { type: ['number', 'null'] } as const;

export const SUMMARY_RESPONSES: Record<string, Schema> = rowsResponses(
  'one row per group, as `posdata summary --format json` prints them. Where the companies read keep several currencies (or by has company or currency), one summary per currency: each row leads with currency (company_id and company with by=company): no figure adds two currencies',
  {
    ...SPLIT_COLUMNS,
    ...Object.fromEntries(
      FIGURES.map((c) => [
        c.key,
        c.kind === 'count' ? { type: 'integer' } : c.nullable ? NUM_OR_NULL : { type: 'number' },
      ]),
    ),
  },
  {
    additionalProperties: {
      type: ['number', 'string', 'null'],
      description: `the group keys first (${KEYS.map((k) => KEY_COLUMNS[k].join('/')).join(', ')}); method:<name> per payment method; with session_id, report (X or Z) and the cash figures of reconcile`,
    },
  },
);

export const LOGIN_BODY: Schema = {
  type: 'object',
  properties: {
    login: { type: 'string', minLength: 1, examples: ['admin'] },
    password: { type: 'string', minLength: 1, description: 'password or API key', examples: ['admin'] },
  },
  required: ['login', 'password'],
  additionalProperties: false,
};

export const LOGIN_REPLY: Schema = {
  type: 'object',
  properties: {
    token: { type: 'string', description: 'opaque bearer token; send it as Authorization: Bearer TOKEN' },
    uid: { type: 'integer', description: "the Odoo user's id" },
    expires_at: { type: 'string', format: 'date-time' },
  },
  required: ['token', 'uid', 'expires_at'],
};

export function resourceNames(): ResourceName[] {
  return Object.keys(RESOURCES) as ResourceName[];
}
