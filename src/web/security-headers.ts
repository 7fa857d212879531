/**
 * The security headers of every HTML page (the counter page `/`, `/login`, `/dashboard`, the
 * sign-in error page): a Content Security Policy (CSP Level 3) that allows same-origin resources
 * only and no framing (`frame-ancestors 'none'`, against clickjacking), `X-Content-Type-Options:
 * nosniff` and a Referrer-Policy (OWASP HTTP Headers Cheat Sheet). No page has inline script or
 * style, so neither 'unsafe-inline' nor hashes are needed.
 *
 * `formTargets`: origins a form's submission may end on besides our own. CSP `form-action` also
 * governs the redirects that follow a form post, so the account page's "Link <provider>" forms,
 * whose post redirects to the provider, name the providers' authorization origins.
 */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    ["form-action 'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `referrerPolicy`: `no-referrer` by default. A page whose forms POST to this service uses
 * `same-origin`: under `no-referrer` a browser sends `Origin: null` with a form post (Fetch
 * standard, "serializing a request origin"), which the cross-site check (same-site.ts) refuses;
 * `same-origin` still sends nothing to other origins.
 */
function pageSecurityHeaders(referrerPolicy: 'no-referrer' | 'same-origin' = 'no-referrer'): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': referrerPolicy,
  };
}

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
