/**
 * The offline credential readiness checks of `npm run oauth:readiness`. Pure: takes the environment, returns
 * one result per check. Messages name variables and rules, never values.
 */
import { OAuthConfigError, expectedRedirectUri, parseOAuthConfig, preGeneratedSecretProblem } from '../../src/auth/oauth/config.ts';
import { isIpHost, isLoopbackHost, parseUrl } from '../../src/auth/oauth/config-values.ts';
import { OAuthError } from '../../src/auth/oauth/errors.ts';
import { parseP256PrivateKey } from '../../src/auth/oauth/jwt/p256-private-key.ts';
import { callbackPath, envPrefix, type ProviderId } from '../../src/auth/oauth/provider-ids.ts';

export interface CheckResult {
  scope: 'shared' | ProviderId;
  passed: boolean;
  message: string;
}

const ENDPOINT_VARIABLES: Record<ProviderId, string[]> = {
  provider_a: ['AUTHORIZATION_URL', 'TOKEN_URL', 'JWKS_URL', 'ISSUER'],
  provider_b: ['AUTHORIZATION_URL', 'TOKEN_URL', 'USERINFO_URL'],
  provider_c: ['AUTHORIZATION_URL', 'TOKEN_URL', 'JWKS_URL', 'ISSUER'],
};

const set = (env: Record<string, string>, name: string) => (env[name]?.trim() ?? '') !== '';
const isTrue = (env: Record<string, string>, name: string) => env[name]?.trim().toLowerCase() === 'true';
/** "X is true" / "X must be true (…)" */
const truthMessage = (passed: boolean, name: string, why = '') => `${name} ${passed ? 'is' : 'must be'} true${why}`;

/** Why a value is not a live URL (absolute https on a real host), or undefined when it is. */
export function liveUrlProblem(value: string | undefined): string | undefined {
  const url = value ? parseUrl(value.trim()) : undefined;
  if (!url) return 'is not an absolute URL';
  if (url.protocol !== 'https:') return 'must use https';
  if (isLoopbackHost(url.hostname) || isIpHost(url.hostname)) return 'must name a real host (no localhost, 127.0.0.1 or IP address)';
  if (!url.hostname.includes('.')) return 'must name a real, fully qualified host';
  return undefined;
}

function sharedChecks(env: Record<string, string>): CheckResult[] {
  const out: CheckResult[] = [];
  const check = (passed: boolean, message: string) => out.push({ scope: 'shared', passed, message });
  check(isTrue(env, 'AUTH_ENABLE_OAUTH'), truthMessage(isTrue(env, 'AUTH_ENABLE_OAUTH'), 'AUTH_ENABLE_OAUTH'));
  const base = env.AUTH_PUBLIC_BASE_URL;
  if (!set(env, 'AUTH_PUBLIC_BASE_URL')) check(false, 'AUTH_PUBLIC_BASE_URL is missing');
  else {
    const problem = liveUrlProblem(base);
    const url = parseUrl(base!.trim());
    const originOnly = url !== undefined && url.pathname === '/' && url.search === '' && url.hash === '';
    check(
      !problem && originOnly,
      problem
        ? `AUTH_PUBLIC_BASE_URL ${problem}`
        : originOnly
          ? 'AUTH_PUBLIC_BASE_URL is an absolute https URL on a real host'
          : 'AUTH_PUBLIC_BASE_URL must be an origin only (no path, query or fragment)',
    );
  }
  check(isTrue(env, 'AUTH_COOKIE_SECURE'), truthMessage(isTrue(env, 'AUTH_COOKIE_SECURE'), 'AUTH_COOKIE_SECURE', ' (HTTPS deployment)'));
  const bypass = isTrue(env, 'AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS');
  check(!bypass, `AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS ${bypass ? 'must be off' : 'is off'} (never for live verification)`);
  return out;
}

function clientSecretChecks(env: Record<string, string>, id: ProviderId, check: (passed: boolean, message: string) => void): void {
  const p = envPrefix(id);
  if (id !== 'provider_c') {
    check(set(env, `${p}_CLIENT_SECRET`), `${p}_CLIENT_SECRET is ${set(env, `${p}_CLIENT_SECRET`) ? 'set' : 'missing'}`);
    return;
  }
  const key = [`${p}_TEAM_ID`, `${p}_KEY_ID`, `${p}_PRIVATE_KEY`];
  const pre = `${p}_GENERATED_CLIENT_SECRET`;
  const given = key.filter((n) => set(env, n));
  if (given.length > 0 && set(env, pre)) return check(false, `provider_c has two client-secret sources: ${given.join(', ')} and ${pre}; set exactly one`);
  if (set(env, pre)) {
    const problem = preGeneratedSecretProblem(env[pre]!.trim(), Date.now());
    return check(!problem, problem ? `${pre} ${problem}` : `provider_c client secret comes from ${pre} (mind its expiry)`);
  }
  if (given.length === 0) return check(false, `provider_c has no client-secret source: missing ${key.join(' + ')} or ${pre}`);
  const missing = key.filter((n) => !set(env, n));
  if (missing.length > 0) return check(false, `provider_c key-based client secret is incomplete: missing ${missing.join(', ')}`);
  check(true, `provider_c client secret is generated from ${key.join(', ')}`);
  try {
    parseP256PrivateKey(env[`${p}_PRIVATE_KEY`]!);
    check(true, `${p}_PRIVATE_KEY is a P-256 private key in PEM (or escaped PEM)`);
  } catch (error) {
    check(
      false,
      `${p}_PRIVATE_KEY is not a usable P-256 private key (${error instanceof OAuthError && error.reason === 'curve' ? 'wrong key type or curve' : 'not PEM or escaped PEM'})`,
    );
  }
}

function providerChecks(env: Record<string, string>, id: ProviderId): CheckResult[] {
  const out: CheckResult[] = [];
  const check = (passed: boolean, message: string) => out.push({ scope: id, passed, message });
  const p = envPrefix(id);
  check(isTrue(env, `${p}_ENABLED`), truthMessage(isTrue(env, `${p}_ENABLED`), `${p}_ENABLED`));
  check(set(env, `${p}_CLIENT_ID`), `${p}_CLIENT_ID is ${set(env, `${p}_CLIENT_ID`) ? 'set' : 'missing'}`);
  clientSecretChecks(env, id, check);

  const redirectName = `${p}_REDIRECT_URI`;
  if (!set(env, redirectName)) check(false, `${redirectName} is missing`);
  else {
    const problem = liveUrlProblem(env[redirectName]);
    if (problem) check(false, `${redirectName} ${problem}`);
    const base = env.AUTH_PUBLIC_BASE_URL?.trim();
    const matches = base !== undefined && base !== '' && env[redirectName] === expectedRedirectUri(base, id);
    check(matches, `${redirectName} ${matches ? 'equals' : 'must equal'} AUTH_PUBLIC_BASE_URL + ${callbackPath(id)} byte for byte`);
  }
  for (const suffix of ENDPOINT_VARIABLES[id]) {
    const name = `${p}_${suffix}`;
    if (!set(env, name)) continue; // the built-in default (a real provider endpoint) applies
    const problem = liveUrlProblem(env[name]);
    check(!problem, `${name} ${problem ?? 'is an absolute https URL on a real host'}`);
  }
  return out;
}

/** Every readiness check for the selected providers, shared checks first. */
export function readinessChecks(env: Record<string, string>, providers: readonly ProviderId[]): CheckResult[] {
  const results = [...sharedChecks(env), ...providers.flatMap((id) => providerChecks(env, id))];
  // Last, the service's own configuration parser must accept the whole set.
  try {
    const config = parseOAuthConfig(env);
    const notOffered = providers.filter((id) => !config.offered.includes(id));
    results.push({
      scope: 'shared',
      passed: notOffered.length === 0,
      message:
        notOffered.length === 0 ? 'the service configuration accepts these settings and offers every selected provider' : `the service would not offer ${notOffered.join(', ')}`,
    });
  } catch (error) {
    const names = error instanceof OAuthConfigError ? error.variables.join(', ') : 'unknown';
    results.push({ scope: 'shared', passed: false, message: `the service configuration refuses these settings: ${names}` });
  }
  return results;
}
