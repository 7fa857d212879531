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
export function pageSecurityHeaders(referrerPolicy: 'no-referrer' | 'same-origin' = 'no-referrer'): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': referrerPolicy,
  };
}
