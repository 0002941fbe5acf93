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

export function docsOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    uiConfig: {
      responseInterceptor: captureToken,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      docExpansion: 'list',
    } as FastifySwaggerUiOptions['uiConfig'],
    theme: { title: 'posdata serve' },
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
          "The shop's point-of-sale data as the spec's REST-like paths. " +
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
