// The interactive page at /docs: Swagger UI from the @fastify/swagger-ui package (its own
// static files, no CDN, works offline), with one addition the spec asks for: after a
// successful login through the page, the token is stored for the following calls, and
// forgotten after a logout.
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

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
