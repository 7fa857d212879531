/**
 * `GET /api/openapi.json` and `GET /api/docs` (HEAD follows GET). Both bodies are computed at the
 * module's top level: componentize-js evaluates it while snapshotting the component (Wizer), so
 * serving them costs no guest work per request on any host, `wasmtime serve`'s fresh instances included.
 */
import { Hono } from 'hono';
import type { Logger } from '../platform/ports.ts';
import { readOnlyRoute } from '../http/errors.ts';
import { assetUrl } from '../web/static-assets.ts';
import { STATIC_ASSETS } from '../web/generated/static-assets.ts';
import { buildOpenApiDocument, openApiJson } from './document.ts';
import { OPENAPI_PATHS } from './paths.ts';
import { referencePage } from './reference-page.tsx';

/** No script at all; the stylesheet from /pkg; nothing framed, posted or based elsewhere. */
const REFERENCE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const DOCUMENT = buildOpenApiDocument();
const DOCUMENT_JSON = openApiJson(DOCUMENT);
const REFERENCE_HTML = referencePage(DOCUMENT, assetUrl(STATIC_ASSETS, 'api-docs.css'));

export function openApiRoutes(logger: Logger): Hono {
  const app = new Hono();
  app.all(
    OPENAPI_PATHS.document,
    readOnlyRoute((c) => c.body(DOCUMENT_JSON, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }), logger),
  );
  app.all(
    OPENAPI_PATHS.reference,
    readOnlyRoute(
      (c) =>
        c.html(REFERENCE_HTML, 200, {
          'Cache-Control': 'no-cache',
          'Content-Security-Policy': REFERENCE_CSP,
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
        }),
      logger,
    ),
  );
  return app;
}
