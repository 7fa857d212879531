/**
 * The shared parameters of the live OAuth tools: OAUTH_PROVIDERS, BASE_URL,
 * AUTH_SYSTEM_ACCESS_TOKEN, OAUTH_EVIDENCE_MODE, SESSION_COOKIE, EXPECTED_EMAIL. Read from the
 * environment, then `.env`. Problems name the parameter and the rule, never the value.
 */
import type { ProviderId } from '../../../src/auth/oauth/provider-ids.ts';
import { isLoopbackHost, parseUrl } from '../../../src/auth/oauth/config-values.ts';
import { selectedProviders } from '../operator-env.ts';

export const SESSION_COOKIE_NAME = 'wasi_auth_dev_session';
export const EVIDENCE_MODES = ['preflight', 'callback'] as const;
export type EvidenceMode = (typeof EVIDENCE_MODES)[number];

export interface LiveParams {
  /** the service's origin, `scheme://host[:port]` without a trailing slash */
  baseUrl: string;
  providers: ProviderId[];
  accessToken: string | undefined;
  mode: EvidenceMode | undefined;
  session: SessionCookie | undefined;
  expectedEmail: string | undefined;
}

export interface SessionCookie {
  /** the value of a `Cookie:` request header carrying the session */
  header: string;
  /** the bare session id (to keep it out of every output) */
  id: string;
}

const value = (env: Record<string, string>, name: string) => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/**
 * SESSION_COOKIE as given: a bare session id, `wasi_auth_dev_session=<id>`, or a whole `Cookie:`
 * header value (optionally with the `Cookie:` prefix) that contains that cookie.
 */
export function parseSessionCookie(raw: string): SessionCookie | undefined {
  const text = raw.trim().replace(/^cookie:\s*/i, '');
  if (!text.includes('=')) return /^[A-Za-z0-9_-]+$/.test(text) ? { header: `${SESSION_COOKIE_NAME}=${text}`, id: text } : undefined;
  for (const part of text.split(';')) {
    const [name, ...rest] = part.split('=');
    const id = rest.join('=').trim();
    if (name?.trim() === SESSION_COOKIE_NAME && id) return { header: text, id };
  }
  return undefined;
}

/** BASE_URL as an origin, or a problem. */
export function parseBaseUrl(raw: string | undefined): { origin: string } | { problem: string } {
  if (!raw) return { problem: 'BASE_URL is missing (the public URL of the running service, e.g. https://auth.example.com)' };
  const url = parseUrl(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return { problem: 'BASE_URL must be an absolute http(s) URL' };
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    return { problem: 'BASE_URL must be an origin only (no path, query, fragment or credentials)' };
  // The tools send the operator token and a session cookie: over http only to this machine.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return { problem: 'BASE_URL must be https unless it is a loopback address (an http BASE_URL would send the operator token and session cookie in clear)' };
  return { origin: url.origin };
}

export interface ParamNeeds {
  mode?: boolean;
  session?: boolean;
  token?: boolean;
}

/** The parameters, or the problems (each names a parameter). */
export function readLiveParams(env: Record<string, string>, needs: ParamNeeds = {}): { params: LiveParams } | { problems: string[] } {
  const problems: string[] = [];
  const base = parseBaseUrl(value(env, 'BASE_URL'));
  if ('problem' in base) problems.push(base.problem);
  const providers = selectedProviders(env);
  if ('error' in providers) problems.push(providers.error);

  const rawMode = value(env, 'OAUTH_EVIDENCE_MODE');
  const mode = EVIDENCE_MODES.find((m) => m === rawMode?.toLowerCase());
  if (rawMode !== undefined && !mode) problems.push(`OAUTH_EVIDENCE_MODE must be ${EVIDENCE_MODES.join(' or ')}`);
  else if (needs.mode && !mode) problems.push(`OAUTH_EVIDENCE_MODE is missing (${EVIDENCE_MODES.join(' or ')})`);

  const rawCookie = value(env, 'SESSION_COOKIE');
  const session = rawCookie === undefined ? undefined : parseSessionCookie(rawCookie);
  if (rawCookie !== undefined && !session)
    problems.push(`SESSION_COOKIE must be a session id, ${SESSION_COOKIE_NAME}=<id>, or a Cookie header value containing ${SESSION_COOKIE_NAME}`);
  else if (needs.session && !session) problems.push(`SESSION_COOKIE is missing (the ${SESSION_COOKIE_NAME} cookie of a browser that completed the provider login)`);

  if (needs.token && !value(env, 'AUTH_SYSTEM_ACCESS_TOKEN'))
    problems.push('AUTH_SYSTEM_ACCESS_TOKEN is missing (a multi-factor system_admin operator token: npm run -s auth:token -- --sub <operator>)');

  const expectedEmail = value(env, 'EXPECTED_EMAIL');
  if (expectedEmail !== undefined && !/^[^\s@]+@[^\s@]+$/.test(expectedEmail)) problems.push('EXPECTED_EMAIL must be an email address');

  if (problems.length > 0 || 'problem' in base || 'error' in providers) return { problems };
  return { params: { baseUrl: base.origin, providers, accessToken: value(env, 'AUTH_SYSTEM_ACCESS_TOKEN'), mode, session, expectedEmail } };
}
