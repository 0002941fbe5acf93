// The request's parameters as serve checks them before a handler runs: integers written in
// decimal only (Ajv's coercion would read `0x10` as 16 and `1e3` as 1000, and answer another
// record than the one asked for), and a refused parameter named in the problem's detail
// ("unknown query parameter 'limt'; did you mean 'limit'?") rather than Ajv's own words.
import type { FastifyRequest } from 'fastify';
import { nameList, type Said, say } from '../core/redact.js';

interface ObjectSchema {
  properties?: Record<string, { type?: string }>;
}

interface RouteSchema {
  querystring?: ObjectSchema;
  params?: ObjectSchema;
  body?: ObjectSchema;
}

interface AjvError {
  keyword: string;
  instancePath?: string;
  message?: string;
  params?: { additionalProperty?: string; missingProperty?: string };
}

const WHERE = { querystring: 'query parameter', params: 'path parameter', body: 'body field' } as const;
type Context = keyof typeof WHERE;

function schemaOf(req: FastifyRequest): RouteSchema {
  return (req.routeOptions.schema ?? {}) as RouteSchema;
}

/**
 * The first integer parameter of the query or the path not written as a decimal number
 * (an optional minus, digits): its problem's detail; undefined when all are. Ranges are
 * left to the schema (`must be >= 1`).
 */
export function undecimal(req: FastifyRequest): Said | undefined {
  const schema = schemaOf(req);
  const sources: [Context, unknown][] = [
    ['params', req.params],
    ['querystring', req.query],
  ];
  for (const [where, values] of sources) {
    const props = schema[where]?.properties ?? {};
    for (const [name, prop] of Object.entries(props)) {
      if (prop.type !== 'integer') continue;
      const given = (values as Record<string, unknown> | undefined)?.[name];
      for (const v of Array.isArray(given) ? given : [given]) {
        if (typeof v === 'string' && !/^-?[0-9]+$/.test(v)) {
          const what = name === 'id' || name.endsWith('_id') ? 'id' : 'number';
          return say`${WHERE[where]} ${name} '${v}' is not a decimal ${what}`;
        }
      }
    }
  }
  return undefined;
}

/**
 * Optimal string alignment distance (Levenshtein with transpositions), as commander
 * suggests a misspelt option.
 */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name closest to `word`, if one is close enough to be what was meant. */
export function closest(word: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const dist = distance(word.toLowerCase(), k.toLowerCase());
    // At most two edits, and fewer than half the word's letters.
    if (dist < bestDistance && dist < Math.max(word.length, k.length) / 2) {
      best = k;
      bestDistance = dist;
    }
  }
  return best;
}

/** A schema validation failure (Ajv's first error) as the problem's detail, naming the parameter. */
export function validationDetail(req: FastifyRequest, context: string | undefined, errors: AjvError[]): Said {
  const where: Context = context === 'params' || context === 'body' ? context : 'querystring';
  const e = errors[0];
  const known = Object.keys(schemaOf(req)[where]?.properties ?? {});
  const extra = e?.params?.additionalProperty;
  if (e?.keyword === 'additionalProperties' && extra !== undefined) {
    const near = closest(extra, known);
    const hint = near ? say`did you mean '${near}'?` : say`this path takes ${nameList(known)}`;
    return say`unknown ${WHERE[where]} '${extra}'; ${hint}`;
  }
  const missing = e?.params?.missingProperty;
  if (e?.keyword === 'required' && missing !== undefined)
    return say`the ${WHERE[where]} ${missing} is missing`;
  const name = (e?.instancePath ?? '').replace(/^\//, '').split('/')[0];
  if (!name) return say`invalid ${WHERE[where]}: ${e?.message ?? 'bad value'}`;
  const values = (where === 'querystring' ? req.query : where === 'params' ? req.params : req.body) as
    | Record<string, unknown>
    | undefined;
  const given = values?.[name];
  if (Array.isArray(given) && given.length > 1)
    return say`the ${WHERE[where]} ${name} is given more than once`;
  const shown = typeof given === 'string' || typeof given === 'number' ? say` '${given}'` : '';
  return say`${WHERE[where]} ${name}${shown} ${e?.message ?? 'is not valid'}`;
}
