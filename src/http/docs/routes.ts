import path from 'node:path';
import express, { type Express } from 'express';

/**
 * `GET /docs`: the API reference rendered by Swagger UI from `/openapi.json`. Every asset is
 * served from the installed `swagger-ui-dist` package, so the page works without internet access
 * (no CDN). The page loads its start-up script from a file rather than inline, so it also works
 * under a strict Content-Security-Policy set by a proxy in front.
 */
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Payment engine API reference</title>
    <link rel="icon" href="/docs/assets/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/start.js"></script>
  </body>
</html>
`;

// BaseLayout has no "explore" box: the page shows this engine's document only, never one named in the URL.
const startScript = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  layout: 'BaseLayout',
  defaultModelsExpandDepth: 0,
  // A box that narrows the list to matching tags: the document is long and only the part on screen is drawn.
  filter: true,
});
`;

export function registerApiReference(app: Express): void {
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(page);
  });
  app.get('/docs/start.js', (_req, res) => {
    res.type('application/javascript').send(startScript);
  });
  app.use('/docs/assets', express.static(assetsDir, { index: false, fallthrough: true, maxAge: '1h' }));
}
