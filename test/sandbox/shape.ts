// Shape comparison of a sandbox reply with a recorded Odoo reply: same keys, same JSON types,
// same error names/codes/message structure; data values may differ.

export type Diff = string[];

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * Odoo answers `false` for any empty value, so false matches any type in result data. Keys must
 * come in the recorded order, except at the top of a reply whose order is the model's field
 * order (`fields_get`: `topOrder` false).
 */
export function shapeDiff(
  expected: unknown,
  actual: unknown,
  path = '$',
  out: Diff = [],
  topOrder = true,
): Diff {
  if (expected === false || actual === false) {
    if (actual === undefined) out.push(`${path}: missing`);
    return out;
  }
  const ke = kind(expected);
  const ka = kind(actual);
  if (ke !== ka) {
    out.push(`${path}: expected ${ke}, got ${ka}`);
    return out;
  }
  if (ke === 'array') {
    const e = expected as unknown[];
    const a = actual as unknown[];
    // Only the top-level list must not be empty (the recorded query found records, so must ours);
    // inside records an empty list is a value (an order without payments), not a shape.
    if (path === '$' && e.length > 0 && a.length === 0) out.push(`${path}: expected a non-empty list`);
    if (e.length > 0)
      for (const [i, x] of a.entries()) shapeDiff(e[Math.min(i, e.length - 1)], x, `${path}[${i}]`, out);
    return out;
  }
  if (ke === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const ek = Object.keys(e);
    const ak = Object.keys(a);
    const missing = ek.filter((k) => !(k in a));
    const extra = ak.filter((k) => !(k in e));
    if (missing.length) out.push(`${path}: missing keys ${missing.join(',')}`);
    if (extra.length) out.push(`${path}: extra keys ${extra.join(',')}`);
    // Python dicts keep their insertion order, and so does the JSON: the keys they share come in
    // the same order.
    const shared = ak.filter((k) => k in e).join(',');
    if ((topOrder || path !== '$') && shared !== ek.filter((k) => k in a).join(','))
      out.push(`${path}: keys in the order ${shared}`);
    for (const k of ek) if (k in a) shapeDiff(e[k], a[k], `${path}.${k}`, out);
  }
  return out;
}

interface ErrorBody {
  name?: unknown;
  message?: unknown;
  arguments?: unknown;
  context?: unknown;
  debug?: unknown;
}

/** Error bodies must match closely: name exact, keys in order, message equal once numbers are masked. */
export function errorDiff(expected: ErrorBody, actual: ErrorBody, path = '$', out: Diff = []): Diff {
  const ek = Object.keys(expected).join(',');
  const ak = Object.keys(actual ?? {}).join(',');
  if (ek !== ak) out.push(`${path}: keys ${ak} instead of ${ek}`);
  if (expected.name !== actual?.name)
    out.push(`${path}.name: ${String(actual?.name)} instead of ${String(expected.name)}`);
  const mask = (s: unknown): string => String(s).replace(/\d+/g, '#');
  if (mask(expected.message) !== mask(actual?.message)) {
    out.push(
      `${path}.message: ${JSON.stringify(actual?.message)} instead of ${JSON.stringify(expected.message)}`,
    );
  }
  if (
    JSON.stringify(expected.arguments).replace(/\d+/g, '#') !==
    JSON.stringify(actual?.arguments).replace(/\d+/g, '#')
  ) {
    out.push(`${path}.arguments differ: ${JSON.stringify(actual?.arguments)}`);
  }
  if (typeof actual?.debug !== 'string') out.push(`${path}.debug: not a string`);
  return out;
}
