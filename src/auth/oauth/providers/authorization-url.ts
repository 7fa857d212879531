/** The authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, RFC 7636 §4.3) as a URL. */
import type { ProviderSettings } from '../config.ts';
import type { AuthorizationRequest } from './types.ts';

export function buildAuthorizationUrl(settings: ProviderSettings, request: AuthorizationRequest, options: { pkce: boolean; extra?: Record<string, string> }): string {
  const url = new URL(settings.endpoints.authorizationUrl);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: settings.clientId,
    redirect_uri: settings.redirectUri,
    scope: settings.scopes.join(' '),
    state: request.state,
    nonce: request.nonce,
    ...options.extra,
  };
  if (options.pkce) {
    if (!request.codeChallenge) throw new Error('a PKCE provider needs a code challenge');
    params.code_challenge = request.codeChallenge;
    params.code_challenge_method = 'S256';
  }
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}
