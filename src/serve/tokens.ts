// Bearer tokens of `posdata serve`: opaque random strings, never the Odoo UID (a UID is
// small and guessable). Each maps, in memory only, to the Odoo client of the user who
// logged in, so every request runs with that user's rights. Tokens expire after a fixed
// lifetime from login; logout revokes one at once.
import { randomBytes } from 'node:crypto';
import type { OdooClient } from '../core/client.js';
import type { Redactor } from '../core/redact.js';

export interface TokenEntry {
  client: OdooClient;
  uid: number;
  login: string;
  /** The Odoo user's zone (context_get), for from/to when the request gives no tz. */
  tz: string | null;
  expiresAt: number;
  /** This user's own secrets (password, token): what their problem documents mask. */
  mask: Redactor;
  /** Runs once when the token ends (logout, expiry, shutdown): unregisters its secrets. */
  release?: () => void;
}

export class TokenStore {
  private readonly entries = new Map<string, TokenEntry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    /** Live tokens per Odoo user; a login past it revokes that user's oldest token. */
    readonly perUser = 20,
  ) {
    // Expired entries hold a password: drop them even if their token is never shown again.
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1_000, ttlMs))).unref();
  }

  issue(entry: Omit<TokenEntry, 'expiresAt'>): { token: string; expiresAt: number } {
    // A script that logs in on every run and never logs out must not fill the memory with
    // live tokens (each holds a password): the oldest of that user's goes first. Entries
    // are kept in issue order, so the first found is the oldest.
    const mine = [...this.entries].filter(([, e]) => e.uid === entry.uid);
    for (const [t, e] of mine.slice(0, Math.max(0, mine.length - this.perUser + 1))) this.drop(t, e);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + this.ttlMs;
    this.entries.set(token, { ...entry, expiresAt });
    return { token, expiresAt };
  }

  /** The live entry of a token; undefined for unknown, revoked or expired ones. */
  get(token: string): TokenEntry | undefined {
    const e = this.entries.get(token);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.drop(token, e);
      return undefined;
    }
    return e;
  }

  revoke(token: string): boolean {
    const e = this.entries.get(token);
    if (e) this.drop(token, e);
    return e !== undefined;
  }

  private drop(token: string, e: TokenEntry): void {
    this.entries.delete(token);
    e.release?.();
  }

  get size(): number {
    return this.entries.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [t, e] of this.entries) if (e.expiresAt <= now) this.drop(t, e);
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const [t, e] of this.entries) this.drop(t, e);
  }
}
