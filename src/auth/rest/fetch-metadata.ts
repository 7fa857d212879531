/**
 * Which cross-site requests may start an OAuth sign-in: top-level navigations only. `GET
 * /api/auth/oauth/<provider>/start` writes a state and spends the global sign-up budget, so an
 * `<img>`, `<script>`, `fetch()` or `<iframe>` on another site must not reach it. The resource
 * isolation policy of web.dev ("Protect your resources from web attacks with Fetch Metadata"),
 * over the W3C Fetch Metadata Request Headers (`Sec-Fetch-Site`, `Sec-Fetch-Mode`,
 * `Sec-Fetch-Dest`):
 *
 * - no `Sec-Fetch-Site` (older browsers, curl, servers), or `same-origin`, `same-site`, `none`
 *   (typed address, bookmark): allowed;
 * - `cross-site`: allowed only as a navigation (`Sec-Fetch-Mode: navigate`) of a whole page
 *   (`Sec-Fetch-Dest: document`, or absent), the way a link on another site opens the sign-in;
 *   anything else is refused.
 */
export function isCrossSiteSubresource(headers: Headers): boolean {
  const site = headers.get('sec-fetch-site');
  if (site === null || site !== 'cross-site') return false;
  const dest = headers.get('sec-fetch-dest');
  return headers.get('sec-fetch-mode') !== 'navigate' || (dest !== null && dest !== 'document');
}
