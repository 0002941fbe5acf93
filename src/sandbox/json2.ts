/**
 * Odoo 19's External JSON-2 API: `POST /json/2/<model>/<method>`, `Authorization: bearer <api key>`,
 * `X-Odoo-Database`, named arguments in a JSON object, the bare JSON result, and real HTTP statuses
 * with a `serialize_exception` body on errors (as odoo19-wire/ records them).
 */
import { httpError, type OdooError } from './errors.js';
import { execute } from './orm.js';
import {
  debugText,
  envFor,
  type HttpReply,
  htmlError,
  JSON_TYPE,
  type ServerState,
  toOdooError,
} from './rpc.js';
import type { Json } from './types.js';

export interface Json2Request {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const header = (h: Json2Request['headers'], name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

function errorReply(e: OdooError): HttpReply {
  const body: { [k: string]: Json } = {
    name: e.pyName,
    message: e.message,
    arguments: [...e.args] as Json[],
    context: {},
    debug: debugText(e, 19),
  };
  const headers: Record<string, string> = { 'Content-Type': JSON_TYPE };
  if (e.status === 401) headers['WWW-Authenticate'] = 'Bearer ';
  return { status: e.status, headers, body: JSON.stringify(body) };
}

export function handleJson2(state: ServerState, req: Json2Request): HttpReply {
  const m = /^\/json\/2\/([^/]+)\/([^/]+)\/?$/.exec(req.path);
  if (req.method !== 'POST' || !m)
    return errorReply(httpError(404, 'Did you mean POST /json/2/<model>/<method>?'));
  const [, model, method] = m as unknown as [string, string, string];
  const dbHeader = header(req.headers, 'x-odoo-database');
  if (dbHeader !== undefined && dbHeader !== state.dbName) {
    return {
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: '<!DOCTYPE html>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n<p>No database is selected and the requested URL was not found in the server-wide controllers.</p>\n<p>Please verify the hostname, <a href=/web/login>login</a> and try again.</p>\n\n<!-- Alternatively, use the X-Odoo-Database header. -->\n',
    };
  }
  const ctype = (header(req.headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (req.body.length > 0 && ctype !== 'application/json' && ctype !== 'application/json-rpc') {
    return htmlError(
      415,
      'Unsupported Media Type',
      'Request inferred type is compatible with [&#39;http&#39;] but &#39;/json/2/&lt;__model__&gt;/&lt;__method__&gt;&#39; is type=&#39;json2&#39;.<br><br>Please verify the Content-Type request header and try again.',
    );
  }
  const auth = /^bearer\s+(\S+)\s*$/i.exec(header(req.headers, 'authorization') ?? '');
  if (!auth)
    return errorReply(
      httpError(401, 'User not authenticated, use an API Key with a Bearer Authorization header.'),
    );
  const key = state.keys.get(auth[1] as string);
  const account = key && !key.expired ? state.accounts.find((a) => a.uid === key.uid) : undefined;
  if (!account) return errorReply(httpError(401, 'Invalid apikey'));
  let body: Record<string, unknown> = {};
  if (req.body.trim().length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.body);
    } catch (e) {
      return errorReply(httpError(400, `could not parse the body as json: ${pythonJsonError(req.body, e)}`));
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return errorReply(httpError(400, 'could not parse the body as json: expected a JSON object'));
    }
    body = parsed as Record<string, unknown>;
  }
  const { ids, context, ...kwargs } = body;
  try {
    const env = envFor(state, account, context, true);
    const result = execute(state.db, env, { model, method, ids, args: [], kwargs, json2: true });
    return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(result ?? null) };
  } catch (e) {
    return errorReply(toOdooError(e));
  }
}

/** Python's json.loads wording for a parse error ("Expecting value: line 1 column 13 (char 12)"). */
function pythonJsonError(text: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : '';
  const m = /position (\d+)/.exec(msg);
  const pos = m ? Number(m[1]) : text.length;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - before.lastIndexOf('\n');
  const what = /after property value|after array element/.test(msg)
    ? "Expecting ',' delimiter"
    : /property name/.test(msg)
      ? 'Expecting property name enclosed in double quotes'
      : /non-whitespace character after JSON/.test(msg)
        ? 'Extra data'
        : 'Expecting value';
  return `${what}: line ${line} column ${col} (char ${pos})`;
}
