// Server URLs as posdata takes them: http(s) only, plain http only to loopback unless
// allowed, never a user:password@ part; and what a stored secret is bound to.
import { UsageError } from './errors.js';
import { say } from './redact.js';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** A URL as it may be shown: any `user:password@` replaced by `***@`. */
export function showUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** Whether a URL carries a user name or password (`https://user:password@host`). */
export function hasUserinfo(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.username !== '' || u.password !== '';
  } catch {
    return showUrl(raw) !== raw;
  }
}

/**
 * An address without its scheme (`127.0.0.1:8069`, `shop.odoo.com`): the scheme is not guessed,
 * since it decides whether the password crosses the network in clear; the line gives both.
 */
function noScheme(raw: string): never {
  const bare = raw.replace(/^[^/?#]*@/, '');
  const host = /^(\[[^\]]*\]|[^:/?#]*)/.exec(bare)?.[1] ?? '';
  throw new UsageError(
    say`--url '${bare}' has no scheme`,
    isLoopback(host)
      ? say`give --url http://${bare} (a server on this machine) or https://${bare}`
      : say`give --url https://${bare}`,
  );
}

/**
 * Parses and checks a server URL: http(s) only; plain http only to loopback unless allowed.
 * A `user:password@` part is dropped: posdata never sends it (the secret goes in the
 * request body or the Authorization header), so it could only leak into output and files.
 */
export function parseServerUrl(raw: string, allowInsecureHttp = false): URL {
  let url: URL;
  const shown = showUrl(raw);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && /^[^\s/?#]+(?:[/?#]\S*)?$/.test(raw)) noScheme(raw);
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      say`'${shown}' is not a URL`,
      say`give the Odoo address, e.g. --url https://shop.odoo.com`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(
      say`'${shown}' is not an http(s) URL`,
      say`give the Odoo address, e.g. --url https://shop.odoo.com`,
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw new UsageError(
      say`refusing plain http to ${url.hostname}: the password would cross the network unencrypted`,
      say`use https, or --allow-insecure-http if you really must`,
    );
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * The server a URL names, for comparing targets: scheme, host and port as URL normalises
 * them (lower case, default port dropped) and the path with one trailing slash; no user
 * name, password, query or fragment. Undefined when it is not a URL.
 */
export function serverKey(raw: string | URL | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/**
 * What a stored secret is bound to: scheme, host and path, not the port. As with a browser's
 * cookies, another port of the same host is the same server (a tunnel, a local proxy in
 * front of Odoo); another host or scheme is not.
 */
export function secretScope(raw: string | URL | undefined): string | undefined {
  const key = serverKey(raw);
  if (key === undefined) return undefined;
  const url = new URL(key);
  url.port = '';
  return url.href;
}
