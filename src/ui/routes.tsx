/**
 * The UI handler (routing step 5): static files under /pkg, the server-rendered page at `/`, and
 * the four server functions. Mount with `app.route('/', uiRoutes(deps, assets))`.
 */
import { Hono } from 'hono';
import type { CounterDeps } from '../counter/application/deps.ts';
import { getCounterView } from '../counter/application/get-view.ts';
import { errorResponse, methodNotAllowedResponse } from '../counter/http-errors.ts';
import { storeFailure } from '../errors.ts';
import { CounterPage, type PageAssets } from './page.tsx';
import { SERVER_FUNCTION_PATHS, serverFunctionRoutes } from './server-functions.ts';
import { assetUrl, staticAssetRoutes, type StaticAsset } from './static-assets.ts';

/**
 * Same-origin only; no inline script or style runs (the initial view is an inert JSON block).
 * `connect-src 'self'` covers the server functions and the SSE stream.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function pageAssets(assets: readonly StaticAsset[]): PageAssets {
  return { script: assetUrl(assets, 'app.js'), stylesheet: assetUrl(assets, 'styles.css'), icon: assetUrl(assets, 'icon.svg') };
}

export function uiRoutes(deps: CounterDeps, assets: readonly StaticAsset[]): Hono {
  const logger = deps.platform.logger;
  const app = new Hono();
  app.route('/', staticAssetRoutes(assets, logger));
  app.route('/', serverFunctionRoutes(deps));

  app.get('/', (c) => {
    let page: string;
    try {
      page = `<!DOCTYPE html>${<CounterPage view={getCounterView(deps)} assets={pageAssets(assets)} />}`;
    } catch (error) {
      return errorResponse(c, storeFailure(error), logger);
    }
    return c.html(page, 200, {
      'Cache-Control': 'no-store',
      'Content-Security-Policy': PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });

  // Registered last, so they only see methods the routes above did not take (HEAD follows GET).
  app.all('/', (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  app.all(SERVER_FUNCTION_PATHS.get_counter_view, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  for (const path of [SERVER_FUNCTION_PATHS.increment_count, SERVER_FUNCTION_PATHS.decrement_count, SERVER_FUNCTION_PATHS.reset_count]) {
    app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  }
  return app;
}
