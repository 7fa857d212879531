/** The browser UI's public surface: the UI handler over the static files embedded at build time. */
import type { CounterDeps } from '../counter/application/deps.ts';
import { STATIC_ASSETS } from './generated/static-assets.ts';
import { pageAssets, uiRoutes } from './routes.tsx';
import type { PageAssets } from './shell.tsx';

export { SERVER_FUNCTION_PATHS, type ServerFunctionRoutes } from './server-functions.ts';
export { STATIC_PREFIX } from './static-assets.ts';

/** Routing step 5: static files under /pkg, the page at `/`, the server functions. */
export function counterUiRoutes(deps: CounterDeps) {
  return uiRoutes(deps, STATIC_ASSETS);
}

export { AccountMenu, Document, Topbar, type HeaderSession, type PageAssets } from './shell.tsx';
export { PAGE_CSP, PAGE_HEADERS } from './routes.tsx';

/** The embedded stylesheet, scripts and icon, for pages outside the counter (the auth pages). */
export function sharedPageAssets(): PageAssets {
  return pageAssets(STATIC_ASSETS);
}
