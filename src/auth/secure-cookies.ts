/**
 * Whether the auth cookies are `Secure` (and `__Host-` prefixed, RFC 6265bis §4.1.3.2): by default
 * exactly when the public base URL is https, so a production deployment cannot forget the flag
 * (OWASP Session Management: "Secure attribute"). AUTH_COOKIE_SECURE=true forces it on (behind a
 * TLS proxy without a base URL); AUTH_COOKIE_SECURE=false with an https base would send session
 * cookies over plain http if the browser ever went there, so it is a configuration error.
 * Shared by the auth and the OAuth configuration so both decide the same way.
 */
export type CookieSecurity = { secure: boolean } | { conflict: 'https_base_without_secure' };

/** `flag`: AUTH_COOKIE_SECURE as given (undefined when unset); `baseUrl`: AUTH_PUBLIC_BASE_URL. */
export function cookieSecurity(flag: boolean | undefined, baseUrl: string | undefined): CookieSecurity {
  const httpsBase = baseUrl?.startsWith('https:') ?? false;
  if (httpsBase && flag === false) return { conflict: 'https_base_without_secure' };
  return { secure: flag ?? httpsBase };
}
