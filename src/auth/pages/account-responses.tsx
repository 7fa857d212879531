/**
 * The account page and the mailed-link pages as responses, for their GET routes (./routes.tsx),
 * with the outcome of the form post that led there (a notice, or a refusal carried back in the
 * query by src/auth/rest/form-return.ts). The pages a
 * mailed link opens carry its token in the address: like every page they send a Referer to their
 * own origin only (`same-origin`; `no-referrer` would make the browser send `Origin: null` on the
 * page's own form post, which the cross-site check refuses), and they load nothing from elsewhere.
 */
import { accountFacts, AUTH_COLLECTIONS, inspectResetLink, listSessions, pendingEmailChange, signInMethodsView, type ActiveSession, type AuthDeps } from '../application/index.ts';
import { readAuthDocument } from '../application/projection.ts';
import { listPasskeys } from '../passkeys/manage.ts';
import { relyingParty } from '../passkeys/relying-party.ts';
import { defaultProviderLabel } from '../oauth/provider-label.ts';
import type { ReturnedRefusal } from '../rest/form-return.ts';
import type { HeaderSession } from '../../web/shell.tsx';
import { contentSecurityPolicy, PAGE_HEADERS } from '../../web/security-headers.ts';
import { DashboardPage, type SessionActions, type SessionRow } from './dashboard-page.tsx';
import { passkeysOfRemovalLink } from '../passkeys/removal-link.ts';
import { PasskeyRemovalPage } from './passkey-removal-page.tsx';
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage, type MailPageState } from './mail-pages.tsx';

export interface Outcome {
  notice?: string | undefined;
  /** the refused form post that led back here */
  refusal?: ReturnedRefusal | undefined;
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
  const security = {
    facts: await accountFacts(deps, current),
    mailOn: deps.config.mail !== undefined,
    minLength: deps.config.passwordMinLength,
    notice: outcome.notice,
    refusal: outcome.refusal,
    now: deps.platform.now(),
  };
  const passkeys = relyingParty(deps.config) ? listPasskeys(deps, current.userId) : undefined;
  const emailChange = security.mailOn ? { pending: await pendingEmailChange(deps, current.userId) } : undefined;
  const providers = linkedProviders(deps, current.userId);
  const offered = deps.offeredProviders?.() ?? [];
  // Each provider by its configured label ("Provider A" as the operator named it), never its id.
  const label = (id: string) => offered.find((p) => p.id === id)?.label ?? defaultProviderLabel(id);
  // Only an account whose own address is verified links providers (docs/security.md, "The linking rule").
  const linkable = security.facts.email === 'verified' ? offered.filter((p) => !providers.includes(p.id)) : [];
  const page = (
    <DashboardPage
      session={current}
      providers={providers.map((id) => ({ id, label: label(id) }))}
      providerLabel={label}
      providersOffered={offered.length > 0}
      linkable={linkable}
      sessions={rows}
      actions={SESSION_FORM_ACTIONS}
      security={security}
      passkeys={passkeys}
      methods={await signInMethodsView(deps, current)}
      emailChange={emailChange}
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
  outcome: Outcome & { email?: string | undefined; session: HeaderSession },
  status = 200,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const { refusal } = outcome;
  const state: MailPageState = {
    notice: outcome.notice,
    error: refusal?.code,
    reason: refusal?.reason,
    retryAt: refusal?.retryAt,
    minLength: deps.config.passwordMinLength,
    now: deps.platform.now(),
    email: outcome.email,
    session: outcome.session,
  };
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

/** The page of a passkey-removal link (./passkey-removal-page.tsx), with a refused post's error when it was sent back with one. */
export async function passkeyRemovalResponse(deps: AuthDeps, token: string, afterReset: boolean, error?: string): Promise<Response> {
  const passkeys = await passkeysOfRemovalLink(deps, token);
  return html(<PasskeyRemovalPage token={token} passkeys={passkeys} afterReset={afterReset} error={error} />, 200, PAGE_HEADERS);
}
