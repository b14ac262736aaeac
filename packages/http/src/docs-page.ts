import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
// Only the path helper: the package's main module would load the whole bundle.
import swaggerUiPath from 'swagger-ui-dist/absolute-path';

/**
 * `GET /docs`: Swagger UI over the service's own /v1/openapi.json, served from the
 * swagger-ui-dist package (no CDN). Scripts are files, never inline, so the page's
 * Content-Security-Policy needs no 'unsafe-inline' for scripts; Swagger UI styles elements
 * inline, hence style-src. The key headers are the document's security schemes: "Authorize"
 * sets them for "Try it out".
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('v1/openapi.json', window.location.href).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
});
`;

const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<>&"]/g, '')} API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

function send(res: Response, type: string, body: string | Buffer): void {
  res.setHeader('content-security-policy', CSP);
  res.setHeader('cache-control', 'public, max-age=300');
  res.type(type).send(body);
}

/** The docs page and its assets, read once (only when first asked for). */
export function docsRouter(title: string): Router {
  const router = Router();
  const cache = new Map<string, Buffer>();
  const asset = (name: string) => {
    let body = cache.get(name);
    if (!body) {
      body = readFileSync(path.join(swaggerUiPath(), name));
      cache.set(name, body);
    }
    return body;
  };
  router.get('/docs', (req, res) => {
    // `/docs/` would resolve the page's relative asset URLs under /docs/docs/. The redirect is
    // relative too, so that it also lands right behind a proxy that adds a path prefix.
    if (req.path.endsWith('/')) {
      const query = req.originalUrl.indexOf('?');
      return res.redirect(301, `../docs${query === -1 ? '' : req.originalUrl.slice(query)}`);
    }
    send(res, 'text/html; charset=utf-8', page(title));
  });
  router.get('/docs/init.js', (_req, res) => send(res, 'text/javascript; charset=utf-8', INIT_SCRIPT));
  for (const [name, type] of Object.entries(ASSETS)) {
    router.get(`/docs/${name}`, (_req, res) => send(res, type, asset(name)));
  }
  return router;
}
