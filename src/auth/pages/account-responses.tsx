/**
 * The account page and the mailed-link pages as responses, for their GET routes (./routes.tsx)
 * and for a refused form post of the mail routes (src/auth/rest/mail-routes.ts), which is answered
 * with its page at the refusal's status rather than a redirect that reads as success. The pages a
 * mailed link opens carry its token in the address: like every page they send a Referer to their
 * own origin only (`same-origin`; `no-referrer` would make the browser send `Origin: null` on the
 * page's own form post, which the cross-site check refuses), and they load nothing from elsewhere.
 */
import { RateLimitedError, type AppError } from '../../errors.ts';
import { statusForCode } from '../../http/errors.ts';
import { accountFacts, AUTH_COLLECTIONS, inspectResetLink, listSessions, type ActiveSession, type AuthDeps } from '../application/index.ts';
import { readAuthDocument } from '../application/projection.ts';
import { listPasskeys } from '../passkeys/manage.ts';
import { relyingParty } from '../passkeys/relying-party.ts';
import { PasswordRejected } from '../domain/password-policy.ts';
import { contentSecurityPolicy, PAGE_HEADERS } from '../../web/security-headers.ts';
import { DashboardPage, type SessionActions, type SessionRow } from './dashboard-page.tsx';
import { passkeysOfRemovalLink } from '../passkeys/removal-link.ts';
import { PasskeyRemovalPage } from './passkey-removal-page.tsx';
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage, type MailPageState } from './mail-pages.tsx';

export interface Outcome {
  notice?: string | undefined;
  error?: string | undefined;
  reason?: string | undefined;
  /** the last account deletion was refused for want of re-authentication */
  deletionRefused?: boolean | undefined;
}

/** Providers linked to the user, from the auth projection's users read model. */
function linkedProviders(deps: AuthDeps, userId: string): string[] {
  const doc = deps.platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
  if (!doc) return [];
  const { providers } = readAuthDocument<{ providers?: unknown }>(AUTH_COLLECTIONS.users, doc.body);
  return Array.isArray(providers) ? providers.filter((p): p is string => typeof p === 'string') : [];
}

/** The session forms post to the form variants of the session routes (src/auth/rest/session-routes.ts). */
const SESSION_FORM_ACTIONS: SessionActions = {
  revoke: (handle) => `/api/auth/sessions/${encodeURIComponent(handle)}/revoke`,
  revokeAll: '/api/auth/sessions/revoke-all',
};

function html(page: { toString(): string }, status: number, headers: Record<string, string>): Response {
  return new Response(`<!doctype html>${page.toString()}`, { status, headers: { ...headers, 'Content-Type': 'text/html; charset=UTF-8' } });
}

export async function dashboardResponse(deps: AuthDeps, current: ActiveSession, outcome: Outcome, status = 200, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const rows: SessionRow[] = listSessions(deps, current).map((s) => ({
    handle: s.id,
    current: s.current,
    device: s.device,
    issuedAt: s.issuedAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
  }));
  const { deletionRefused, ...rest } = outcome;
  const security = {
    facts: await accountFacts(deps, current),
    mailOn: deps.config.mail !== undefined,
    minLength: deps.config.passwordMinLength,
    outcome: { ...rest, minLength: deps.config.passwordMinLength },
  };
  const passkeys = relyingParty(deps.config) ? listPasskeys(deps, current.userId) : undefined;
  const providers = linkedProviders(deps, current.userId);
  // Only an account whose own address is verified links providers (docs/security.md, "The linking rule").
  const linkable = security.facts.email === 'verified' ? (deps.offeredProviders?.() ?? []).filter((p) => !providers.includes(p.id)) : [];
  const page = (
    <DashboardPage
      session={current}
      providers={providers}
      linkable={linkable}
      sessions={rows}
      actions={SESSION_FORM_ACTIONS}
      security={security}
      passkeys={passkeys}
      deletionRefused={deletionRefused === true}
    />
  );
  // The link forms' posts redirect to the providers: CSP form-action must allow their origins.
  const formTargets = [...new Set(linkable.map((p) => p.authorizationOrigin))];
  const csp: Record<string, string> = formTargets.length > 0 ? { 'Content-Security-Policy': contentSecurityPolicy(formTargets) } : {};
  return html(page, status, { ...PAGE_HEADERS, ...csp, ...extraHeaders });
}

export type MailPage = 'forgot' | 'reset' | 'verify';

export async function mailPageResponse(
  deps: AuthDeps,
  which: MailPage,
  token: string,
  outcome: Outcome,
  status = 200,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const state: MailPageState = { ...outcome, minLength: deps.config.passwordMinLength };
  switch (which) {
    case 'forgot':
      return html(<ForgotPasswordPage state={state} />, status, { ...PAGE_HEADERS, ...extraHeaders });
    case 'reset': {
      const live = (await inspectResetLink(deps, token)) !== undefined;
      return html(<ResetPasswordPage token={token} live={live} state={state} />, status, { ...PAGE_HEADERS, ...extraHeaders });
    }
    case 'verify':
      return html(<VerifyEmailPage token={token} state={state} />, status, { ...PAGE_HEADERS, ...extraHeaders });
  }
}

/** The page of a passkey-removal link (./passkey-removal-page.tsx), after a refused post at the refusal's status. */
export async function passkeyRemovalResponse(
  deps: AuthDeps,
  token: string,
  afterReset: boolean,
  error?: string,
  status = 200,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const passkeys = await passkeysOfRemovalLink(deps, token);
  return html(<PasskeyRemovalPage token={token} passkeys={passkeys} afterReset={afterReset} error={error} />, status, { ...PAGE_HEADERS, ...extraHeaders });
}

/** A refused form post's outcome and status (a refused new password says why; 429 says when). */
export function refusal(failure: AppError): { outcome: Outcome; status: number; headers: Record<string, string> } {
  const headers: Record<string, string> = failure instanceof RateLimitedError ? { 'Retry-After': String(failure.retryAfterSeconds) } : {};
  return { outcome: { error: failure.code, reason: failure instanceof PasswordRejected ? failure.problem : undefined }, status: statusForCode(failure.code), headers };
}
