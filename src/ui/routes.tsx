/**
 * The UI handler (routing step 5): static files under /pkg, the server-rendered page at `/`, and
 * the four server functions. Mount with `app.route('/', uiRoutes(deps, assets))`.
 */
import { Hono } from 'hono';
import type { CounterDeps } from '../counter/application/deps.ts';
import { readCounterView, type SourcedCounterView } from '../counter/application/get-view.ts';
import { validatedSurrogateHeaders } from '../http/surrogate.ts';
import { errorResponse, methodNotAllowedResponse } from '../http/errors.ts';
import { AppError } from '../errors.ts';
import { COUNTER_CHANGED } from '../counter/application/counter-changed.ts';
import { CounterPage, type PageAssets } from './page.tsx';
import { SERVER_FUNCTION_PATHS, serverFunctionRoutes } from './server-functions.ts';
import { assetUrl, staticAssetRoutes, type StaticAsset } from './static-assets.ts';
import { contentSecurityPolicy, pageSecurityHeaders } from '../http/security-headers.ts';

/**
 * Same-origin only; no inline script or style runs (the initial view is an inert JSON block).
 * `connect-src 'self'` covers the server functions and the SSE stream.
 */
export const PAGE_CSP = contentSecurityPolicy();

/**
 * The response headers of every HTML page (counter and auth pages). Referrer-Policy is
 * `same-origin`, not `no-referrer`: under `no-referrer` Chromium sends `Origin: null` with a form
 * POST (Fetch standard, "serializing a request origin"), which the auth routes' origin check
 * refuses, so the header's sign-out form would fail. No referrer leaves for other sites either way.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', ...pageSecurityHeaders('same-origin') };

export function pageAssets(assets: readonly StaticAsset[]): PageAssets {
  return { script: assetUrl(assets, 'app.js'), accountScript: assetUrl(assets, 'account.js'), stylesheet: assetUrl(assets, 'styles.css'), icon: assetUrl(assets, 'icon.svg') };
}

export function uiRoutes(deps: CounterDeps, assets: readonly StaticAsset[]): Hono {
  const logger = deps.platform.logger;
  const app = new Hono();
  app.route('/', staticAssetRoutes(assets, logger));
  app.route('/', serverFunctionRoutes(deps));

  app.get('/', (c) => {
    let page: string;
    let read: SourcedCounterView;
    try {
      read = readCounterView(deps);
      page = `<!DOCTYPE html>${<CounterPage view={read.view} assets={pageAssets(assets)} />}`;
    } catch (error) {
      return errorResponse(c, AppError.fromStore(error, COUNTER_CHANGED), logger);
    }
    // The page CSP has no per-response nonce, so the page is the same for everyone at one counter state.
    return c.html(page, 200, { ...PAGE_HEADERS, ...validatedSurrogateHeaders([read.source]) });
  });

  // Registered last, so they only see methods the routes above did not take (HEAD follows GET).
  app.all('/', (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  app.all(SERVER_FUNCTION_PATHS.get_counter_view, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  for (const path of [SERVER_FUNCTION_PATHS.increment_count, SERVER_FUNCTION_PATHS.decrement_count, SERVER_FUNCTION_PATHS.reset_count]) {
    app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  }
  return app;
}
