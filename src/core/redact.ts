// The secret (password or API key) must never reach anything printable. Everything that
// formats a request, a reply or an error for a human goes through a Redactor. posdata's own
// lines are Said (say`…`): the values from outside in its holes are masked, its own words
// never, so a password that is a piece of a word ("pos" in "posdata") leaves the word whole.
// Every secret held is looked for at once and every place one stands is masked, so no piece
// of a secret survives another's mask (a password inside an API key).

export const MASK = '***';

/** Secrets shorter than this are masked only where they stand as a whole quoted value. */
const SHORT = 3;

/** Python's repr() of a str without its quotes, with the given quote escaped. */
function pythonRepr(s: string, quote: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out;
}

/** Every byte outside RFC 3986's unreserved set percent-encoded (as Python's quote does). */
function percentAll(s: string, lower: boolean): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    if (/[A-Za-z0-9\-._~]/.test(ch)) out += ch;
    else {
      const hex = b.toString(16).padStart(2, '0');
      out += `%${lower ? hex : hex.toUpperCase()}`;
    }
  }
  return out;
}

/**
 * The base64 characters that depend on the secret's bytes alone, for each of the three
 * alignments it can have inside a longer base64 text (`login:secret` in Basic auth, a
 * token that embeds it): what a server's base64 of anything containing the secret shows.
 */
function base64Cores(s: string): string[] {
  const bytes = Buffer.from(s, 'utf8');
  const out: string[] = [];
  for (const k of [0, 1, 2]) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const core = enc.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** One form of a secret: the text to find, and which of its characters are the secret. */
interface Form {
  find: string;
  /** The secret's characters within `find` ([from, to)): all of it, or inside quotes. */
  from: number;
  to: number;
}

/** The forms a secret takes in text that quotes, escapes or encodes it. */
function formsOf(secret: string): Form[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = [
    secret,
    json,
    // Python's json.dumps: non-ASCII as \uXXXX.
    json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    pythonRepr(secret, "'"),
    pythonRepr(secret, '"'),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    percentAll(secret, false),
    percentAll(secret, false).replace(/%20/g, '+'),
    percentAll(secret, true),
  ];
  // Under 6 bytes the base64 core is under 7 characters and could match ordinary text.
  if (Buffer.byteLength(secret) >= 6) forms.push(...base64Cores(secret));
  return [...new Set(forms)]
    .filter((f) => f.length >= SHORT)
    .map((f) => ({ find: f, from: 0, to: f.length }));
}

/** A short secret only as a whole quoted value ('ab', "ab"): anywhere else it is ordinary text. */
function quotedFormsOf(secret: string): Form[] {
  return [JSON.stringify(secret), `'${pythonRepr(secret, "'")}'`, `"${pythonRepr(secret, '"')}"`].map(
    (f) => ({
      find: f,
      from: 1,
      to: f.length - 1,
    }),
  );
}

/** Characters [from, to) of a text. */
type Span = [number, number];

/** Overlapping or touching spans joined, in order. */
function merged(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * Control characters in text from outside, as a terminal would obey them: ESC (an OSC 52
 * that writes the clipboard, a title, a screen clear), CR, the C1 set, the bidirectional
 * overrides. A newline and a tab stay (Odoo's messages have lines).
 */
const OUTSIDE_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text from outside with its control characters shown escaped (`\x1b`, `\u202e`), never sent. */
export function escapeControls(s: string): string {
  return s.replace(OUTSIDE_CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code === 0x0d
      ? '\\r'
      : code < 0x100
        ? `\\x${code.toString(16).padStart(2, '0')}`
        : `\\u${code.toString(16)}`;
  });
}

/**
 * `s` with each span replaced by one MASK; the control characters of the `outside` spans
 * (the holes: a server's text, a file's) escaped.
 */
function maskSpans(s: string, spans: Span[], outside: Span[] = []): string {
  const esc = (from: number, to: number): string => {
    let out = '';
    let at = from;
    for (const [a, b] of outside) {
      const x = Math.max(a, from);
      const y = Math.min(b, to);
      if (x >= y) continue;
      out += s.slice(at, x) + escapeControls(s.slice(x, y));
      at = y;
    }
    return out + s.slice(at, to);
  };
  outside.sort((p, q) => p[0] - q[0]);
  let out = '';
  let at = 0;
  for (const [a, b] of merged(spans)) {
    out += esc(at, a) + MASK;
    at = b;
  }
  return out + esc(at, s.length);
}

/**
 * Text posdata writes: its own words (the template's literal parts) around values that come
 * from outside (the holes: server replies, user input, file names, other errors' text). Only
 * the holes are masked, so a secret that happens to be a piece of posdata's own words (a
 * password `pos` in "posdata" or "pos.order") leaves those words whole. A hole that is itself
 * a Said keeps its own structure. Made with the `say` template tag.
 */
export class Said {
  constructor(
    readonly parts: readonly string[],
    readonly holes: readonly unknown[],
  ) {}

  /** The text with nothing masked: for matching and for Error.message, never for printing. */
  toString(): string {
    return this.flat().text;
  }

  /** The whole text, where its holes are in it, and where its names are. */
  flat(): { text: string; holes: Span[]; names: Span[] } {
    let text = '';
    const holes: Span[] = [];
    const names: Span[] = [];
    const walk = (t: Said): void => {
      t.parts.forEach((part, i) => {
        text += part;
        if (i >= t.holes.length) return;
        const h = t.holes[i];
        if (h instanceof Said) {
          walk(h);
          return;
        }
        const v = h instanceof Name ? h.value : String(h);
        if (v) (h instanceof Name ? names : holes).push([text.length, text.length + v.length]);
        text += v;
      });
    };
    walk(this);
    return { text, holes, names };
  }
}

/**
 * A name in a request (a model, a field, a method, an operator, a database): posdata's
 * vocabulary and Odoo's, so masked only where it is a secret as a whole, not where a
 * secret is a piece of it (a password `pos` in `pos.order`).
 */
class Name {
  constructor(readonly value: string) {}
}

/** Odoo's identifiers (models, fields and their paths, methods, states, languages) and domain operators. */
const NAME =
  /^(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|[=!<>]=?|<>|=\?|=?i?like|not i?like|not in|child_of|parent_of|not any|[|&!])$/;

/**
 * A JSON value as JSON.stringify writes it, for a --debug trace: its structure as it is,
 * names (object keys, identifiers, operators) as names, every other string and number a
 * value from outside (what a user typed into --domain or --context).
 */
export function jsonSaid(value: unknown): Said {
  const parts: string[] = [''];
  const holes: unknown[] = [];
  const put = (hole: unknown): void => {
    holes.push(hole);
    parts.push('');
  };
  const lit = (s: string): void => {
    parts[parts.length - 1] += s;
  };
  const str = (s: string): void => {
    if (NAME.test(s)) {
      lit('"');
      put(new Name(JSON.stringify(s).slice(1, -1)));
      lit('"');
    } else put(JSON.stringify(s));
  };
  const walk = (v: unknown): void => {
    if (v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON: () => unknown }).toJSON();
    if (typeof v === 'string') str(v);
    else if (typeof v === 'number' || typeof v === 'bigint') put(JSON.stringify(v) ?? 'null');
    else if (Array.isArray(v)) {
      lit('[');
      v.forEach((x, i) => {
        if (i > 0) lit(',');
        if (x === undefined || typeof x === 'function') lit('null');
        else walk(x);
      });
      lit(']');
    } else if (v !== null && typeof v === 'object') {
      lit('{');
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === 'function') continue;
        if (!first) lit(',');
        first = false;
        str(k);
        lit(':');
        walk(x);
      }
      lit('}');
    } else lit(JSON.stringify(v) ?? 'null');
  };
  walk(value);
  return new Said(parts, holes);
}

/** say`unknown field ${name} on ${model}`: posdata's words with outside values in the holes. */
export function say(parts: TemplateStringsArray, ...holes: unknown[]): Said {
  return new Said([...parts], holes);
}

/** A word posdata computes itself (a command's or a model's name): never masked. */
export function own(word: string): Said {
  return new Said([word], []);
}

/** Odoo's names (fields, states) joined: each masked only where it is a secret as a whole. */
export function nameList(list: readonly string[], separator = ', '): Said {
  return new Said(
    list.length === 0 ? [''] : ['', ...list.slice(1).map(() => separator), ''],
    list.map((n) => new Name(n)),
  );
}

/** Lines of posdata's joined, each keeping its own words and holes. */
export function joinSaid(list: readonly Said[], separator: string): Said {
  return new Said(list.length === 0 ? [''] : ['', ...list.slice(1).map(() => separator), ''], list);
}

/**
 * An error's stack for --debug: its first line (the message) from outside, the frames
 * (files and functions of posdata and Node) as they are.
 */
export function stackSaid(err: unknown): Said {
  const e = err as Error | undefined;
  const stack = typeof e?.stack === 'string' ? e.stack : String(err);
  const at = stack.search(/\n\s+at /);
  return at < 0 ? say`${stack}` : new Said(['', stack.slice(at)], [stack.slice(0, at)]);
}

export class Redactor {
  /** Each secret with the number of holders that registered it and its forms. */
  private readonly secrets = new Map<string, { holders: number; forms: Form[] }>();

  /**
   * Masks `secret` from now on, in every form listed by formsOf. The CLI keeps its one
   * secret until it exits (late error messages stay masked); a long-running holder (a
   * token of `posdata serve`) calls the returned function once it no longer uses the
   * secret, so the set does not only grow.
   */
  add(secret: string | undefined): () => void {
    if (!secret) return () => undefined;
    const held = this.secrets.get(secret);
    if (held) held.holders++;
    else
      this.secrets.set(secret, {
        holders: 1,
        forms: secret.length < SHORT ? quotedFormsOf(secret) : formsOf(secret),
      });
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      const h = this.secrets.get(secret);
      if (!h) return;
      if (--h.holders <= 0) this.secrets.delete(secret);
    };
  }

  /**
   * Masks from now on what `other` masks now, for as long as this redactor lives (a chain's
   * lines, of what its servers' options registered: src/cli/servers.ts).
   */
  adopt(other: Redactor): void {
    for (const [secret, held] of other.secrets)
      if (!this.secrets.has(secret)) this.secrets.set(secret, { holders: 1, forms: held.forms });
  }

  /** Secrets masked now (for tests and diagnostics; never printed). */
  get size(): number {
    return this.secrets.size;
  }

  /**
   * Every place in `s` where a form of a secret stands, overlapping ones included: masking
   * them all together leaves no piece of any secret, whichever is longer or comes first
   * (a password `admin` inside an API key `adminkey-abc123`).
   */
  private found(s: string): Span[] {
    const spans: Span[] = [];
    for (const { forms } of this.secrets.values()) {
      for (const { find, from, to } of forms) {
        for (let i = s.indexOf(find); i >= 0; i = s.indexOf(find, i + 1)) spans.push([i + from, i + to]);
      }
    }
    return spans;
  }

  /** A text that comes from outside as a whole (a server's message, a stack): every secret masked. */
  text(s: string): string {
    return maskSpans(s, this.found(s));
  }

  /**
   * posdata's text with the secrets masked where they touch a hole: its own words are never
   * cut into ("see ***data closures"), and a secret that runs from a value into the words
   * around it is masked whole.
   */
  said(t: Said): string {
    const { text, holes, names } = t.flat();
    const touching = this.found(text).filter(
      ([a, b]) => holes.some(([x, y]) => a < y && x < b) || names.some(([x, y]) => a === x && b === y),
    );
    return maskSpans(text, touching, [...holes, ...names]);
  }

  /** A deep copy of a JSON value with every string equal to (or containing) a secret masked. */
  value<T>(v: T): T {
    if (this.secrets.size === 0) return v;
    return JSON.parse(this.text(JSON.stringify(v))) as T;
  }
}

/** Masks nothing: for a line whose values are known to hold no secret (tests, plain diagnostics). */
export const NO_SECRETS = new Redactor();
