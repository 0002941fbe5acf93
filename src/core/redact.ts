// The secret (password or API key) must never reach anything printable. Everything that
// formats a request, a reply or an error for a human goes through a Redactor.

export const MASK = '***';

export class Redactor {
  /** Each secret with the number of holders that registered it. */
  private readonly secrets = new Map<string, number>();

  /**
   * Masks `secret` from now on. The CLI keeps its one secret until it exits (late error
   * messages stay masked); a long-running holder (a token of `posdata serve`) calls the
   * returned function once it no longer uses the secret, so the set does not only grow.
   */
  add(secret: string | undefined): () => void {
    // Very short strings would mask ordinary text; Odoo never accepts an empty password.
    if (!secret || secret.length < 3) return () => undefined;
    this.secrets.set(secret, (this.secrets.get(secret) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const n = (this.secrets.get(secret) ?? 1) - 1;
      if (n > 0) this.secrets.set(secret, n);
      else this.secrets.delete(secret);
    };
  }

  /** Secrets masked now (for tests and diagnostics; never printed). */
  get size(): number {
    return this.secrets.size;
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets.keys()) {
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
