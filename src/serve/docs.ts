// The interactive page at /docs: Swagger UI from the @fastify/swagger-ui package (its own
// static files, no CDN, works offline), with one addition the spec asks for: after a
// successful login through the page, the token is stored for the following calls, and
// forgotten after a logout.
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { PROBLEM_SCHEMA } from './schema.js';

export const SECURITY_SCHEME = 'bearerAuth';

// Runs in the browser. @fastify/swagger-ui writes uiConfig functions into its initializer
// as source text, in the scope where `ui` (the Swagger UI instance) is declared; the
// function is only called after a response, when `ui` exists.
const CAPTURE_TOKEN_SOURCE = `function (res) {
  try {
    var path = new URL(res.url, window.location.href).pathname;
    if (/\\/api\\/v1\\/auth\\/login$/.test(path) && res.status === 200 && res.obj && res.obj.token) {
      ui.preauthorizeApiKey(${JSON.stringify(SECURITY_SCHEME)}, res.obj.token);
    } else if (/\\/api\\/v1\\/auth\\/logout$/.test(path) && res.status < 300) {
      ui.authActions.logout([${JSON.stringify(SECURITY_SCHEME)}]);
    }
  } catch (e) {
    console.warn('posdata: could not store the token', e);
  }
  return res;
}`;

/** A function whose source text is the browser-side interceptor above. */
const captureToken = Object.assign((res: unknown) => res, { toString: () => CAPTURE_TOKEN_SOURCE });

// posdata's own marks for the page: its name in the top bar (in place of the framework's
// logo) and a tab icon of its own (in place of Swagger's), both drawn here, no files to ship.
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40" role="img" aria-label="posdata">' +
  '<rect x="1" y="6" width="28" height="28" rx="6" fill="#62a03f"/>' +
  '<text x="15" y="27" text-anchor="middle" font-family="sans-serif" font-size="20" font-weight="700" fill="#fff">p</text>' +
  '<text x="38" y="29" font-family="sans-serif" font-size="24" font-weight="700" fill="#fff">posdata</text></svg>';
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#62a03f"/>' +
  '<text x="16" y="24" text-anchor="middle" font-family="sans-serif" font-size="22" font-weight="700" fill="#fff">p</text></svg>';

export function docsOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    logo: { type: 'image/svg+xml', content: LOGO_SVG },
    uiConfig: {
      responseInterceptor: captureToken,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      docExpansion: 'list',
    } as FastifySwaggerUiOptions['uiConfig'],
    theme: {
      title: 'posdata serve',
      favicon: [
        { filename: 'posdata.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: ICON_SVG },
      ],
    },
    staticCSP: false,
  };
}

/** The OpenAPI document's frame: what the service is, how to log in, its limits. */
export function openapiOptions(p: {
  version: string;
  tokenTtlSeconds: number;
  clientRate: number;
}): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'posdata serve',
        version: p.version,
        description:
          // Which Odoo (URL, database) stays unnamed: this page is public.
          "The shop's point-of-sale data as a read-only JSON API, a path per list (/api/v1/sales, …). " +
          'Log in with POST /api/v1/auth/login and send the token as Authorization: Bearer TOKEN; each request runs with ' +
          "that Odoo user's rights. Every list answers a JSON array of records, exactly as the matching posdata command " +
          'prints with --format json, streamed page by page; without limit it answers every matching record. ' +
          `Tokens last ${p.tokenTtlSeconds} s; at most ${p.clientRate} requests a minute per token.`,
      },
      components: {
        securitySchemes: {
          [SECURITY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'the token from POST /api/v1/auth/login',
          },
        },
        schemas: { Problem: PROBLEM_SCHEMA },
      },
      tags: [
        { name: 'auth', description: 'tokens' },
        { name: 'pos', description: 'point-of-sale data, read-only' },
      ],
    },
  };
}
