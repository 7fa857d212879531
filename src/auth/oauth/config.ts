/**
 * OAuth configuration (docs/auth.md, "Configuration"): which providers are offered and
 * everything each needs, read from the component's environment. Hard mistakes (malformed values,
 * a redirect URI that is not `{AUTH_PUBLIC_BASE_URL}/api/auth/oauth/<provider>/callback` byte for
 * byte, both or neither provider_c secret source, the development bypass on a secure deployment)
 * throw `OAuthConfigError` naming the variables; a provider that merely lacks credentials is not
 * offered, and `missing` names what it lacks. Errors never contain values.
 */
import { decodeJwt } from 'jose';
import { cookieSecurity } from '../secure-cookies.ts';
import { EnvReader, isLoopbackHost, type ConfigProblem, type EnvSource } from './config-values.ts';
import { PROVIDER_DEFAULTS } from './provider-defaults.ts';
import { readProviderLabel } from './provider-label.ts';
import { callbackPath, envPrefix, PROVIDER_IDS, type ProviderId } from './provider-ids.ts';

export type ClientAuthentication =
  | { kind: 'client_secret'; secret: string }
  | { kind: 'signed_jwt'; teamId: string; keyId: string; privateKeyPem: string }
  | { kind: 'pre_generated_jwt'; secret: string };

export interface ProviderEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  issuer?: string;
  jwksUrl?: string;
  userInfoUrl?: string;
}

/** Everything a provider module needs; present only for a provider that is offered. */
export interface ProviderSettings {
  id: ProviderId;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  endpoints: ProviderEndpoints;
  clientAuthentication: ClientAuthentication;
}

export interface ProviderStatus {
  id: ProviderId;
  enabled: boolean;
  /** OAuth on, provider enabled, every credential present */
  offered: boolean;
  /** Variables the provider still needs (names only). */
  missing: string[];
  /** The sign-in button's label (AUTH_PROVIDER_<X>_LABEL). */
  label: string;
  settings: ProviderSettings | undefined;
}

export interface OAuthConfig {
  enabled: boolean;
  publicBaseUrl: string | undefined;
  cookieSecure: boolean;
  developmentCallbackBypass: boolean;
  providers: Record<ProviderId, ProviderStatus>;
  /** Offered providers in the order a, b, c. */
  offered: ProviderId[];
}

export class OAuthConfigError extends Error {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(`invalid OAuth configuration: ${problems.map((p) => `${p.variable} ${p.rule}`).join('; ')}`);
    this.name = 'OAuthConfigError';
    this.problems = problems;
  }

  get variables(): string[] {
    return [...new Set(this.problems.map((p) => p.variable))];
  }
}

/** The redirect URI a provider must be registered with, from the public base. */
export function expectedRedirectUri(publicBaseUrl: string, id: ProviderId): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${callbackPath(id)}`;
}

function readBase(env: EnvReader): string | undefined {
  const name = 'AUTH_PUBLIC_BASE_URL';
  const url = env.url(name);
  if (!url) return undefined;
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    env.problem(name, 'must be an origin only (scheme, host, optional port; no path, query or fragment)');
    return undefined;
  }
  return url.origin;
}

/**
 * Why a pre-generated provider_c client secret (a JWT the provider accepts until its `exp`) cannot
 * be used, or undefined. An expired one would fail every sign-in at the token endpoint: refusing it
 * at start turns that into a configuration error naming the variable (never its value).
 */
export function preGeneratedSecretProblem(secret: string, nowMs: number): string | undefined {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(secret);
  } catch {
    return 'must be the signed client-secret JWT (three base64url parts)';
  }
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return 'has no exp claim';
  if (claims.exp * 1000 <= nowMs) return 'has expired (its exp is in the past): generate a new client secret';
  return undefined;
}

function readClientAuthentication(env: EnvReader, id: ProviderId, missing: string[]): ClientAuthentication | undefined {
  const p = envPrefix(id);
  if (id !== 'provider_c') {
    const secret = env.raw(`${p}_CLIENT_SECRET`);
    if (!secret) missing.push(`${p}_CLIENT_SECRET`);
    return secret ? { kind: 'client_secret', secret } : undefined;
  }
  const generation = [`${p}_TEAM_ID`, `${p}_KEY_ID`, `${p}_PRIVATE_KEY`];
  const pre = `${p}_GENERATED_CLIENT_SECRET`;
  const given = generation.filter((n) => env.has(n));
  const preGiven = env.has(pre);
  if (given.length > 0 && preGiven) {
    env.problem(`${given.join(', ')} and ${pre}`, 'are two client-secret sources for provider_c: set exactly one');
    return undefined;
  }
  if (preGiven) {
    const secret = env.raw(pre)!;
    const problem = preGeneratedSecretProblem(secret, Date.now());
    if (problem) {
      env.problem(pre, problem);
      return undefined;
    }
    return { kind: 'pre_generated_jwt', secret };
  }
  if (given.length === generation.length) {
    return { kind: 'signed_jwt', teamId: env.raw(generation[0]!)!, keyId: env.raw(generation[1]!)!, privateKeyPem: env.raw(generation[2]!)! };
  }
  const absent = generation.filter((n) => !env.has(n));
  env.problem(
    given.length === 0 ? `${generation.join(' + ')} or ${pre}` : absent.join(', '),
    given.length === 0 ? 'missing: provider_c needs exactly one client-secret source' : 'missing: the provider_c key-based client secret needs team id, key id and private key',
  );
  missing.push(...(given.length === 0 ? [pre] : absent));
  return undefined;
}

function readEndpoints(env: EnvReader, id: ProviderId): ProviderEndpoints | undefined {
  const p = envPrefix(id);
  const d = PROVIDER_DEFAULTS[id];
  const problemsBefore = env.problems.length;
  const authorizationUrl = env.url(`${p}_AUTHORIZATION_URL`, d.authorizationUrl);
  const tokenUrl = env.url(`${p}_TOKEN_URL`, d.tokenUrl);
  const issuer = d.issuer !== undefined ? (env.raw(`${p}_ISSUER`) ?? d.issuer) : undefined;
  if (issuer !== undefined) env.url(`${p}_ISSUER`, issuer);
  const jwksUrl = d.jwksUrl !== undefined ? env.url(`${p}_JWKS_URL`, d.jwksUrl) : undefined;
  const userInfoUrl = d.userInfoUrl !== undefined ? env.url(`${p}_USERINFO_URL`, d.userInfoUrl) : undefined;
  if (env.problems.length > problemsBefore || !authorizationUrl || !tokenUrl) return undefined;
  return {
    authorizationUrl: authorizationUrl.href,
    tokenUrl: tokenUrl.href,
    ...(issuer !== undefined ? { issuer } : {}),
    ...(jwksUrl ? { jwksUrl: jwksUrl.href } : {}),
    ...(userInfoUrl ? { userInfoUrl: userInfoUrl.href } : {}),
  };
}

function readScopes(env: EnvReader, id: ProviderId): string[] {
  const name = `${envPrefix(id)}_SCOPES`;
  const scopes = (env.raw(name) ?? PROVIDER_DEFAULTS[id].scopes).split(/\s+/).filter(Boolean);
  if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) env.problem(name, 'must be space-separated scope tokens (RFC 6749 §3.3)');
  if (id === 'provider_a' && !scopes.includes('openid')) env.problem(name, 'must include openid (provider_a signs in with an ID token)');
  return scopes;
}

function readProvider(env: EnvReader, id: ProviderId, oauthOn: boolean, base: string | undefined): ProviderStatus {
  const p = envPrefix(id);
  const enabled = env.boolean(`${p}_ENABLED`, false);
  const status: ProviderStatus = { id, enabled, offered: false, missing: [], label: readProviderLabel(env, id), settings: undefined };
  const clientId = env.raw(`${p}_CLIENT_ID`);
  const redirectUri = env.raw(`${p}_REDIRECT_URI`);
  // Two secret sources are a mistake whether or not the provider is on.
  if (!enabled || !oauthOn) {
    if (id === 'provider_c' && env.has(`${p}_GENERATED_CLIENT_SECRET`) && [`${p}_TEAM_ID`, `${p}_KEY_ID`, `${p}_PRIVATE_KEY`].some((n) => env.has(n))) {
      readClientAuthentication(env, id, []);
    }
    return status;
  }
  if (!clientId) status.missing.push(`${p}_CLIENT_ID`);
  if (!redirectUri) status.missing.push(`${p}_REDIRECT_URI`);
  const clientAuthentication = readClientAuthentication(env, id, status.missing);
  const scopes = readScopes(env, id);
  const endpoints = readEndpoints(env, id);
  if (redirectUri && base && redirectUri !== expectedRedirectUri(base, id)) {
    env.problem(`${p}_REDIRECT_URI`, `must equal AUTH_PUBLIC_BASE_URL followed by ${callbackPath(id)}, byte for byte`);
    return status;
  }
  if (clientId && redirectUri && clientAuthentication && endpoints && base) {
    status.offered = true;
    status.settings = { id, clientId, redirectUri, scopes, endpoints, clientAuthentication };
  }
  return status;
}

function checkBypass(env: EnvReader, bypass: boolean, secureFlag: boolean | undefined, base: string | undefined): void {
  if (!bypass) return;
  const name = 'AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS';
  if (secureFlag === true) env.problem(name, 'is refused with AUTH_COOKIE_SECURE=true (local development only)');
  // The host says whether it listens on loopback only; anything reachable from another machine
  // (or a host that cannot tell) must not sign in a fixed identity without a provider.
  if (env.raw('APP_LISTEN_LOOPBACK_ONLY') !== 'true') env.problem(name, 'is refused unless the host listens on a loopback address only (--host 127.0.0.1)');
  if (base && new URL(base).protocol === 'https:' && !isLoopbackHost(new URL(base).hostname)) {
    env.problem(name, 'is refused when AUTH_PUBLIC_BASE_URL is a non-local https URL (local development only)');
  }
}

/** Parses and checks the OAuth configuration; throws `OAuthConfigError` naming every broken variable. */
export function parseOAuthConfig(source: EnvSource): OAuthConfig {
  const env = new EnvReader(source);
  const enabled = env.boolean('AUTH_ENABLE_OAUTH', false);
  const secureFlag = env.has('AUTH_COOKIE_SECURE') ? env.boolean('AUTH_COOKIE_SECURE', false) : undefined;
  const developmentCallbackBypass = env.boolean('AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS', false);
  const base = env.has('AUTH_PUBLIC_BASE_URL') || enabled ? readBase(env) : undefined;
  if (enabled && !env.has('AUTH_PUBLIC_BASE_URL')) env.problem('AUTH_PUBLIC_BASE_URL', 'is required when AUTH_ENABLE_OAUTH=true');
  if (base && secureFlag === true && new URL(base).protocol !== 'https:') env.problem('AUTH_PUBLIC_BASE_URL', 'must be https when AUTH_COOKIE_SECURE=true');
  const cookies = cookieSecurity(secureFlag, base);
  if ('conflict' in cookies) env.problem('AUTH_COOKIE_SECURE', 'must not be false when AUTH_PUBLIC_BASE_URL is https');
  const cookieSecure = 'secure' in cookies && cookies.secure;
  checkBypass(env, developmentCallbackBypass, secureFlag, base);

  const providers = Object.fromEntries(PROVIDER_IDS.map((id) => [id, readProvider(env, id, enabled, base)])) as Record<ProviderId, ProviderStatus>;
  if (env.problems.length > 0) throw new OAuthConfigError(env.problems);
  return {
    enabled,
    publicBaseUrl: base,
    cookieSecure,
    developmentCallbackBypass,
    providers,
    offered: PROVIDER_IDS.filter((id) => providers[id].offered),
  };
}
