/** The hashed URLs of the shared stylesheet, scripts and icon every page's head and top bar name. */
import type { PageAssets } from './shell.tsx';
import { STATIC_ASSETS } from './generated/static-assets.ts';
import { assetUrl, type StaticAsset } from './static-assets.ts';

export function pageAssets(assets: readonly StaticAsset[]): PageAssets {
  return { script: assetUrl(assets, 'app.js'), accountScript: assetUrl(assets, 'account.js'), stylesheet: assetUrl(assets, 'styles.css'), icon: assetUrl(assets, 'icon.svg') };
}

/** The embedded stylesheet, scripts and icon, for pages outside the counter (the auth pages). */
export function sharedPageAssets(): PageAssets {
  return pageAssets(STATIC_ASSETS);
}
