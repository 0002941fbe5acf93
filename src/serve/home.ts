// GET /: what a person (or a script) that opens the service's address finds: its name, a
// link to the interactive docs and to the OpenAPI document, and the paths with what each
// answers. HTML for a browser, JSON when the Accept header asks for JSON. The paths come
// from the OpenAPI document itself, so the index and /docs never disagree. Like /docs it is
// public, so it names no Odoo URL or database.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface HomePath {
  method: string;
  path: string;
  summary: string;
}

export interface Home {
  name: string;
  version: string;
  docs: string;
  openapi: string;
  paths: HomePath[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function homeOf(doc: unknown, version: string): Home {
  const paths: HomePath[] = [];
  const all = ((doc as { paths?: Record<string, Record<string, { summary?: string }>> }).paths ??
    {}) as Record<string, Record<string, { summary?: string }>>;
  for (const [path, ops] of Object.entries(all)) {
    for (const m of METHODS) {
      const op = ops[m];
      if (op) paths.push({ method: m.toUpperCase(), path, summary: op.summary ?? '' });
    }
  }
  return { name: 'posdata serve', version, docs: '/docs', openapi: '/api/v1/openapi.json', paths };
}

/** JSON when Accept names a JSON type and not HTML (a browser names HTML first). */
export function wantsJson(req: FastifyRequest): boolean {
  const accept = (req.headers.accept ?? '').toLowerCase();
  return /application\/(?:[\w.+-]*\+)?json/.test(accept) && !accept.includes('text/html');
}

const html = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function homeHtml(h: Home): string {
  const rows = h.paths
    .map(
      (p) =>
        `<tr><td class="m">${html(p.method)}</td><td><code>${html(p.path)}</code></td><td>${html(p.summary)}</td></tr>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(h.name)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
h1 { margin-bottom: 0.2rem; } .v { color: #666; margin-top: 0; }
table { border-collapse: collapse; width: 100%; } td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
td.m { font-weight: 600; color: #62a03f; } code { font-size: 0.95em; }
</style>
</head>
<body>
<h1>${html(h.name)}</h1>
<p class="v">version ${html(h.version)}</p>
<p>The shop's point-of-sale data over HTTP. Log in with <code>POST /api/v1/auth/login</code> and send the token as
<code>Authorization: Bearer TOKEN</code>.</p>
<ul>
<li><a href="${html(h.docs)}">Interactive documentation</a> (try the paths in the browser)</li>
<li><a href="${html(h.openapi)}">OpenAPI document</a></li>
</ul>
<h2>Paths</h2>
<table>
${rows}
</table>
</body>
</html>
`;
}

export function homeRoute(app: FastifyInstance, version: string): void {
  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    const home = homeOf(app.swagger(), version);
    if (wantsJson(req)) return reply.type('application/json; charset=utf-8').send(JSON.stringify(home));
    return reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('Vary', 'Accept')
      .send(homeHtml(home));
  });
}
