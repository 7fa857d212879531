/** The browser UI's public surface: the UI handler over the static files embedded at build time. */
import type { CounterDeps } from '../counter/application/deps.ts';
import { STATIC_ASSETS } from './generated/static-assets.ts';
import { uiRoutes } from './routes.tsx';

export { SERVER_FUNCTION_PATHS, type ServerFunctionRoutes } from './server-functions.ts';
export { STATIC_PREFIX } from './static-assets.ts';

/** Routing step 5: static files under /pkg, the page at `/`, the server functions. */
export function counterUiRoutes(deps: CounterDeps) {
  return uiRoutes(deps, STATIC_ASSETS);
}
