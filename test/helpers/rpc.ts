// Direct JSON-RPC calls to a server, the way a curl+jq script would make them: the
// reference that posdata's output is compared with.
export class Rpc {
  private id = 0;
  uid = 0;
  constructor(
    readonly url: string,
    readonly db = 'demo',
    readonly login = 'admin',
    readonly password = 'admin',
  ) {}

  async call(service: string, method: string, args: unknown[]): Promise<unknown> {
    const res = await fetch(`${this.url.replace(/\/$/, '')}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: { service, method, args },
        id: ++this.id,
      }),
    });
    const body = (await res.json()) as {
      result?: unknown;
      error?: { data?: { name?: string; message?: string } };
    };
    if (body.error) throw new Error(`${body.error.data?.name}: ${body.error.data?.message}`);
    return body.result;
  }

  async auth(): Promise<number> {
    this.uid = (await this.call('common', 'authenticate', [
      this.db,
      this.login,
      this.password,
      {},
    ])) as number;
    return this.uid;
  }

  async kw<T = unknown>(
    model: string,
    method: string,
    args: unknown[],
    kwargs: Record<string, unknown> = {},
  ): Promise<T> {
    if (!this.uid) await this.auth();
    return (await this.call('object', 'execute_kw', [
      this.db,
      this.uid,
      this.password,
      model,
      method,
      args,
      kwargs,
    ])) as T;
  }

  searchRead<T = Record<string, unknown>>(
    model: string,
    domain: unknown[],
    kwargs: Record<string, unknown> = {},
  ): Promise<T[]> {
    return this.kw<T[]>(model, 'search_read', [domain], kwargs);
  }

  count(model: string, domain: unknown[]): Promise<number> {
    return this.kw<number>(model, 'search_count', [domain]);
  }
}
