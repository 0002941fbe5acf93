// The secret (password or API key) must never reach anything printable. Everything that
// formats a request, a reply or an error for a human goes through a Redactor.

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

/** The forms a secret takes in text that quotes, escapes or encodes it. */
function formsOf(secret: string): string[] {
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
  // Longest first, so that a form containing another is masked whole.
  return [...new Set(forms)].filter((f) => f.length >= SHORT).sort((a, b) => b.length - a.length);
}

/** A short secret only as a whole quoted value ('ab', "ab"): anywhere else it is ordinary text. */
function quotedFormsOf(secret: string): [string, string][] {
  const json = JSON.stringify(secret);
  const forms: [string, string][] = [
    [json, `"${MASK}"`],
    [`'${pythonRepr(secret, "'")}'`, `'${MASK}'`],
    [`"${pythonRepr(secret, '"')}"`, `"${MASK}"`],
  ];
  return forms;
}

interface Held {
  holders: number;
  /** [what to find, what to put instead], longest first. */
  forms: [string, string][];
}

export class Redactor {
  /** Each secret with the number of holders that registered it and its forms. */
  private readonly secrets = new Map<string, Held>();

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
        forms:
          secret.length < SHORT
            ? quotedFormsOf(secret)
            : formsOf(secret).map((f) => [f, MASK] as [string, string]),
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

  /** Secrets masked now (for tests and diagnostics; never printed). */
  get size(): number {
    return this.secrets.size;
  }

  text(s: string): string {
    let out = s;
    for (const { forms } of this.secrets.values()) {
      for (const [form, mask] of forms) if (out.includes(form)) out = out.split(form).join(mask);
    }
    return out;
  }

  /** A deep copy of a JSON value with every string equal to (or containing) a secret masked. */
  value<T>(v: T): T {
    if (this.secrets.size === 0) return v;
    return JSON.parse(this.text(JSON.stringify(v))) as T;
  }
}

/** The process-wide redactor: credentials resolution registers the secret here. */
export const redactor = new Redactor();
