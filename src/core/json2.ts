// Odoo 19's External JSON-2 API: POST {base}/json/2/<model>/<method>, bearer API key,
// X-Odoo-Database, named arguments. (Being built: issue 8.)
import { UsageError } from './errors.js';
import type { Http } from './http.js';
import type { CallOptions, Credentials, Protocol, Transport } from './transport.js';
import type { ServerVersion } from './types.js';

export async function detectProtocol(
  _http: Http,
  _db: string,
  _login: string,
  _secret: string,
): Promise<Protocol> {
  return 'jsonrpc';
}

export class Json2Transport implements Transport {
  readonly protocol = 'json2' as const;
  constructor(
    private readonly http: Http,
    readonly db: string,
  ) {}
  get requestCount(): number {
    return this.http.requestCount;
  }
  version(): Promise<ServerVersion> {
    throw new UsageError('JSON-2 is not available yet', 'use --protocol jsonrpc');
  }
  authenticate(_c: Credentials): Promise<number> {
    throw new UsageError('JSON-2 is not available yet', 'use --protocol jsonrpc');
  }
  executeKw(
    _c: Credentials,
    _u: number,
    _m: string,
    _me: string,
    _a: unknown[],
    _k: Record<string, unknown>,
    _o: CallOptions,
  ): Promise<unknown> {
    throw new UsageError('JSON-2 is not available yet', 'use --protocol jsonrpc');
  }
  close(): Promise<void> {
    return this.http.close();
  }
  destroy(): void {
    this.http.destroy();
  }
}
