/**
 * Preflight's inspection of the redirect a login start answers with (`npm run oauth:preflight`). Pure:
 * takes the `Location` header and what the operator configured, returns one result per rule.
 * The redirect must go to an external HTTPS authorization endpoint (never the development
 * callback bypass, never loopback or an IP address) and carry `response_type=code`, the
 * configured `client_id`, `redirect_uri` = BASE_URL + callback path, the expected `scope`, and an
 * unguessable `state` and `nonce` (plus a PKCE S256 challenge where the provider uses PKCE).
 * Messages may name the endpoint's origin, the redirect URI and the scopes; never the state,
 * nonce, challenge or client id.
 */
import { isIpHost, isLoopbackHost } from '../../../src/auth/oauth/config-values.ts';
import { callbackPath, type ProviderId } from '../../../src/auth/oauth/provider-ids.ts';

export interface LocationExpectations {
  /** the service's origin (BASE_URL) */
  baseUrl: string;
  provider: ProviderId;
  /** the configured client id, when the operator environment has it */
  clientId: string | undefined;
  /** the name of the variable clientId came from, for messages */
  clientIdVariable: string;
  scopes: string[];
  pkce: boolean;
}

export interface LocationCheck {
  passed: boolean;
  message: string;
}

export interface LocationInspection {
  checks: LocationCheck[];
  /** origin of the authorization endpoint the browser would be sent to */
  endpointOrigin: string | undefined;
  /** values from the URL that must never be printed (state, nonce, challenge, a bypass code …) */
  sensitive: string[];
}

/** A Location may be relative to the service. */
function resolve(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** 128 bits in base64url: shorter state or nonce values are guessable. */
const MIN_RANDOM_LENGTH = 22;

export function inspectAuthorizationLocation(location: string | null | undefined, expect: LocationExpectations): LocationInspection {
  const checks: LocationCheck[] = [];
  const check = (passed: boolean, message: string) => checks.push({ passed, message });
  const url = location ? resolve(location, expect.baseUrl) : undefined;
  if (!location || !url) {
    check(false, 'the login start answered without a usable Location header');
    return { checks, endpointOrigin: undefined, sensitive: [] };
  }
  const params = url.searchParams;
  const sensitive = ['state', 'nonce', 'code', 'code_challenge', 'client_id'].flatMap((name) => params.getAll(name));
  const callback = callbackPath(expect.provider);

  if (url.origin === expect.baseUrl && url.pathname === callback) {
    check(
      false,
      `the login start redirected straight to the service's own callback ${callback}: that is the development callback bypass (AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS), never valid for live verification`,
    );
    return { checks, endpointOrigin: url.origin, sensitive };
  }
  check(true, 'the redirect is not the development callback bypass URL');
  if (url.origin === expect.baseUrl) {
    const error = params.get('error');
    const why = error && /^[a-z_]{1,40}$/.test(error) ? `, error=${error}` : '';
    check(false, `the login start redirected back to the service (${url.pathname}${why}) instead of to the provider`);
    return { checks, endpointOrigin: url.origin, sensitive };
  }

  check(
    url.protocol === 'https:',
    url.protocol === 'https:' ? `the authorization endpoint uses https (${url.origin})` : `the authorization endpoint must use https (it is ${url.origin})`,
  );
  const host = url.hostname;
  const external = !isLoopbackHost(host) && !isIpHost(host) && host.includes('.');
  check(
    external,
    external
      ? `the authorization endpoint is on an external host (${host})`
      : `the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is ${host})`,
  );

  const responseType = params.get('response_type');
  check(
    responseType === 'code',
    responseType === 'code' ? 'response_type is code' : `response_type must be code (it is ${responseType === null ? 'missing' : JSON.stringify(responseType)})`,
  );

  const clientId = params.get('client_id');
  if (!clientId) check(false, 'client_id is missing');
  else if (expect.clientId === undefined) check(true, `client_id is present (${expect.clientIdVariable} is not set here, so not compared)`);
  else check(clientId === expect.clientId, clientId === expect.clientId ? `client_id equals ${expect.clientIdVariable}` : `client_id differs from ${expect.clientIdVariable}`);

  const expectedRedirect = `${expect.baseUrl}${callback}`;
  const redirect = params.get('redirect_uri');
  check(
    redirect === expectedRedirect,
    redirect === expectedRedirect
      ? `redirect_uri equals BASE_URL + ${callback}`
      : `redirect_uri must equal ${expectedRedirect} byte for byte (it is ${redirect === null ? 'missing' : redirect})`,
  );

  const scope = params.get('scope');
  const got = new Set((scope ?? '').split(' ').filter(Boolean));
  const sameScopes = got.size === expect.scopes.length && expect.scopes.every((s) => got.has(s));
  check(sameScopes, scope === null ? 'scope is missing' : sameScopes ? `scope is "${scope}"` : `scope "${scope}" must be "${expect.scopes.join(' ')}"`);

  for (const name of ['state', 'nonce'] as const) {
    const v = params.get(name) ?? '';
    check(
      v.length >= MIN_RANDOM_LENGTH,
      v === ''
        ? `${name} is missing`
        : v.length >= MIN_RANDOM_LENGTH
          ? `${name} is present (${v.length} characters, not printed)`
          : `${name} is too short to be unguessable (${v.length} characters)`,
    );
  }
  if (expect.pkce) {
    const method = params.get('code_challenge_method');
    const challenge = params.get('code_challenge') ?? '';
    const ok = method === 'S256' && /^[A-Za-z0-9_-]{43}$/.test(challenge);
    check(ok, ok ? 'PKCE code_challenge is present with method S256' : 'PKCE code_challenge with code_challenge_method=S256 is missing or malformed');
  }
  return { checks, endpointOrigin: url.origin, sensitive };
}
