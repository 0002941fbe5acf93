// The spec's transport: POST {base}/jsonrpc with a JSON-RPC 2.0 envelope, services
// `common` and `object`. Errors arrive as HTTP 200 with an `error` member.
import { AuthError, ProtocolError } from './errors.js';
import type { Http } from './http.js';
import { mapOdooError, type OdooErrorData } from './odoo-errors.js';
import { jsonSaid, MASK, type Said, say } from './redact.js';
import type { CallOptions, Credentials, OrmCall, Transport } from './transport.js';
import type { ServerVersion } from './types.js';
import { parseReply } from './young-names.js';

interface Envelope {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: OdooErrorData };
}

export class JsonRpcTransport implements Transport {
  readonly protocol = 'jsonrpc' as const;
  private nextId = 1;

  constructor(
    private readonly http: Http,
    private readonly db: string,
  ) {}

  get requestCount(): number {
    return this.http.requestCount;
  }

  get serverDate(): number | undefined {
    return this.http.serverDate;
  }

  async call(
    service: string,
    method: string,
    args: unknown[],
    opts: CallOptions,
    model?: string,
  ): Promise<unknown> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id });
    const host = this.http.base.host;
    let env: Envelope | undefined;
    // Parsed inside the HTTP layer's retry loop: a garbled body is retried in the same count.
    const reply = await this.http.post('jsonrpc', body, {}, opts.retry, (r) => {
      if (r.status !== 200) return;
      try {
        env = parseReply(r.text, (doc) => (doc as Envelope | null)?.result) as Envelope;
      } catch {
        const html = /html/i.test(r.contentType) || /^\s*</.test(r.text);
        throw new ProtocolError(
          html
            ? say`${host} answered with an HTML page, not JSON-RPC`
            : say`${host} answered with JSON that does not parse`,
          html
            ? say`check that --url is the Odoo server itself (not a login page or proxy)`
            : say`try again; check any proxy in between`,
          { transient: !html },
        );
      }
    });
    if (reply.status === 404) {
      throw new ProtocolError(
        say`${host} has no /jsonrpc endpoint (HTTP 404)`,
        say`check --url; on Odoo 19+ servers without JSON-RPC use --protocol json2 with an API key`,
      );
    }
    if (reply.status !== 200 || env === undefined) {
      throw new ProtocolError(
        say`${host} answered HTTP ${reply.status} instead of JSON-RPC`,
        reply.status >= 500 ? say`the server or a proxy is failing; try again later` : say`check --url`,
        // The HTTP layer already retried 429/502/503/504: this is the last answer, not worth more tries.
        { transient: false },
      );
    }
    if (
      env === null ||
      typeof env !== 'object' ||
      env.jsonrpc !== '2.0' ||
      (!('result' in env) && !env.error && !('id' in env))
    ) {
      throw new ProtocolError(
        say`${host} answered JSON that is not JSON-RPC`,
        say`check that --url is the Odoo server`,
      );
    }
    if (env.id !== id) {
      throw new ProtocolError(
        say`${host} answered request ${id} with id ${JSON.stringify(env.id)}`,
        say`check any proxy or cache in between`,
      );
    }
    if (env.error) {
      throw mapOdooError(env.error.data ?? { message: env.error.message }, {
        host,
        db: this.db,
        model,
        code: env.error.code,
      });
    }
    return env.result ?? null;
  }

  async version(): Promise<ServerVersion> {
    return (await this.call('common', 'version', [], { retry: true })) as ServerVersion;
  }

  async authenticate(creds: Credentials): Promise<number> {
    // Retried only on what never reached Odoo's password check (HTTP layer, 'auth').
    const uid = await this.call('common', 'authenticate', [creds.db, creds.login, creds.secret, {}], {
      retry: 'auth',
    });
    if (typeof uid !== 'number' || uid <= 0) {
      throw new AuthError(
        say`${this.http.base.host} rejected login '${creds.login}' on database '${creds.db}'`,
        say`check the user and password (or API key) and run posdata login again`,
      );
    }
    return uid;
  }

  executeKw(creds: Credentials, uid: number, c: OrmCall, opts: CallOptions): Promise<unknown> {
    return this.call(
      'object',
      'execute_kw',
      [creds.db, uid, creds.secret, c.model, c.method, c.args, c.kwargs],
      opts,
      c.model,
    );
  }

  describeCall(creds: Credentials, uid: number, c: OrmCall): Said {
    return jsonSaid([creds.db, uid, MASK, c.model, c.method, c.args, c.kwargs]);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  destroy(): void {
    this.http.destroy();
  }
}
