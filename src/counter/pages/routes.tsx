/**
 * The counter page's handler (routing step 5): static files under /pkg, the server-rendered page at
 * `/`, and the four server functions. Mount with `app.route('/', counterPageRoutes(deps, assets))`.
 */
import { Hono } from 'hono';
import type { CounterSurfaceDeps } from '../write-access.ts';
import { readCounterView, type SourcedCounterView } from '../application/get-view.ts';
import { validatedSurrogateHeaders } from '../../http/surrogate.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import { AppError } from '../../errors.ts';
import { COUNTER_CHANGED } from '../application/counter-changed.ts';
import { CounterPage } from './page.tsx';
import { SERVER_FUNCTION_CONTRACT, serverFunctionRoutes } from './server-functions.ts';
import { refuseOtherMethods } from '../../http/operation.ts';
import { staticAssetRoutes, type StaticAsset } from '../../web/static-assets.ts';
import { pageAssets } from '../../web/page-assets.ts';
import { PAGE_HEADERS } from '../../web/security-headers.ts';

export function counterPageRoutes(deps: CounterSurfaceDeps, assets: readonly StaticAsset[]): Hono {
  const logger = deps.platform.logger;
  const app = new Hono();
  app.route('/', staticAssetRoutes(assets, logger));
  app.route('/', serverFunctionRoutes(deps));

  app.get('/', (c) => {
    let page: string;
    let read: SourcedCounterView;
    try {
      read = readCounterView(deps);
      page = `<!DOCTYPE html>${<CounterPage view={read.view} assets={pageAssets(assets)} writes={deps.writeAccess?.policy ?? 'anyone'} />}`;
    } catch (error) {
      return errorResponse(c, AppError.fromStore(error, COUNTER_CHANGED), logger);
    }
    // The page CSP has no per-response nonce, so the page is the same for everyone at one counter state.
    return c.html(page, 200, { ...PAGE_HEADERS, ...validatedSurrogateHeaders([read.source]) });
  });

  // Registered last, so they only see methods the routes above did not take (HEAD follows GET).
  app.all('/', (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  refuseOtherMethods(app, SERVER_FUNCTION_CONTRACT.operations, logger);
  return app;
}
