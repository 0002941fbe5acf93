// The secret (password or API key) must never reach anything printable. Everything that
// formats a request, a reply or an error for a human goes through a Redactor.

export const MASK = '***';

export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    // Very short strings would mask ordinary text; Odoo never accepts an empty password.
    if (secret && secret.length >= 3) this.secrets.add(secret);
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
      const json = JSON.stringify(secret).slice(1, -1);
      if (json !== secret && out.includes(json)) out = out.split(json).join(MASK);
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
