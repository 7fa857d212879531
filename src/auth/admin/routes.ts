/**
 * The administration API (docs/auth.md, "Administration"; docs/operating.md):
 *   GET    /api/admin/users?q=<address prefix>&cursor=…&limit=…   → { users: [{ id, email, created_at, disabled }], next }
 *   GET    /api/admin/users/{id}                                  → the account's summary
 *   POST   /api/admin/users/{id}/disable | /enable                → { id, disabled, changed, sessions_ended }
 *   POST   /api/admin/users/{id}/sessions/revoke                  {"all":true} | {"handle":"…"} → { revoked }
 *   POST   /api/admin/users/{id}/reset-link                       → 202 { status: "queued" }
 *   DELETE /api/admin/users/{id}                                  → 204
 * Every route first checks the bearer token storage status takes (an AAL2 system administrator,
 * application/system-token.ts): 401 with `WWW-Authenticate: Bearer` without a valid one, 403 for
 * a valid one lacking the claims, before anything else is read. No cookie is read, so no
 * cross-site form can act here.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { base64url } from 'jose';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import { errorResponse } from '../../http/errors.ts';
import { refuseOtherMethods, routerPath } from '../../http/operation.ts';
import type { AuthDeps } from '../application/deps.ts';
import { authorizeSystemAdmin, bearerToken } from '../application/system-token.ts';
import { listUsers } from '../application/user-list.ts';
import { deleteAccountAsAdmin, disableAccount, enableAccount, revokeSessionsOf, sendResetLink, type Administrator } from './actions.ts';
import { ADMIN_OPERATIONS, ADMIN_PATHS } from './contract.ts';
import { userSummary, type UserSummary } from './user-summary.ts';
import * as S from './wire-schemas.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const MAX_BODY_BYTES = 1024;
const DEFAULT_PAGE = 50;

type AdminEnv = { Variables: { admin: Administrator } };

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | undefined) => (ms === undefined ? null : iso(ms));

function parse<T extends v.GenericSchema>(schema: T, value: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid input');
  return result.output;
}

/** The account id in the path; an id that cannot be one names no account. */
function userIdOf(c: Context): string {
  const result = v.safeParse(S.UserIdSchema, c.req.param('id'));
  if (!result.success) throw new AppError('not_found', 'no such user');
  return result.output;
}

/** Addresses are stored with ASCII letters lower-cased (domain/email.ts): the prefix is matched alike. */
const asStored = (prefix: string) => prefix.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * A cursor is the user id the scan stopped at: any text it decodes to only says where the scan
 * goes on. No id holds U+0000 (PostgreSQL text cannot): a cursor is cut there, which starts the
 * scan earlier, never past an account.
 */
function decodeCursor(cursor: string): string | undefined {
  try {
    return new TextDecoder().decode(base64url.decode(cursor)).split('\u0000')[0] || undefined;
  } catch {
    throw new AppError('validation', 'cursor is the `next` of a previous page');
  }
}

function summaryView(s: UserSummary): v.InferOutput<typeof S.UserSummarySchema> {
  return {
    id: s.id,
    email: s.email,
    email_verified: s.emailVerified,
    created_at: iso(s.createdAt),
    registered_with: s.registeredWith,
    disabled: s.disabled,
    access_changed_at: isoOrNull(s.accessChangedAt),
    access_changed_by: s.accessChangedBy ?? null,
    sign_in_methods: s.signInMethods,
    providers: s.providers,
    passkeys: s.passkeys.map((p) => ({ name: p.name, created_at: iso(p.createdAt), last_used_at: isoOrNull(p.lastUsedAt), synced: p.synced })),
    sessions: s.sessions.map((x) => ({
      id: x.handle,
      device: x.device,
      method: x.method,
      issued_at: iso(x.issuedAt),
      last_seen_at: iso(x.lastSeenAt),
      expires_at: iso(x.expiresAt),
    })),
  };
}

async function readJson(c: Context): Promise<unknown> {
  if ((c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') throw new AppError('unsupported_media_type', 'send application/json');
  return c.req.json().catch((error: unknown) => {
    throw new AppError('validation', 'request body is not valid JSON', { cause: error });
  });
}

export function adminRoutes(deps: AuthDeps): Hono<AdminEnv> {
  const app = new Hono<AdminEnv>();
  const { logger } = deps.platform;
  const limit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => errorResponse(c, new AppError('payload_too_large', 'request body exceeds 1 KiB'), logger) });

  const administrator: MiddlewareHandler<AdminEnv> = async (c, next) => {
    const principal = await authorizeSystemAdmin(deps, bearerToken(c.req.header('authorization')));
    c.set('admin', { subject: principal.subject });
    await next();
  };
  /** Each administrative action leaves a log line naming the administrator and the account. */
  const logAction = (c: Context<AdminEnv>, code: string, message: string, userId: string, fields: Record<string, unknown> = {}) =>
    logger.log('info', message, { code, subject: c.get('admin').subject, user_id: userId, ...fields });

  app.get(ADMIN_PATHS.users, administrator, (c) => {
    const q = asStored(parse(v.optional(S.AddressPrefixSchema, ''), c.req.query('q')));
    const cursor = c.req.query('cursor');
    const page = listUsers(
      deps,
      q,
      cursor === undefined ? undefined : decodeCursor(parse(S.CursorSchema, cursor)),
      c.req.query('limit') === undefined ? DEFAULT_PAGE : parse(S.PageLimitSchema, c.req.query('limit')),
    );
    logger.log('info', 'users listed', { code: 'auth_admin_users_listed', subject: c.get('admin').subject, count: page.users.length });
    const users = page.users.map((u) => ({ id: u.user_id, email: u.email, created_at: iso(u.registered_at), disabled: u.disabled }));
    const body: v.InferOutput<typeof S.UserListSchema> = { users, next: page.next === undefined ? null : base64url.encode(page.next) };
    return c.json(body, 200, NO_STORE);
  });

  app.get(routerPath(ADMIN_PATHS.user), administrator, async (c) => {
    const userId = userIdOf(c);
    const summary = summaryView(await userSummary(deps, userId));
    logger.log('info', 'user shown', { code: 'auth_admin_user_shown', subject: c.get('admin').subject, user_id: userId });
    return c.json(summary, 200, NO_STORE);
  });

  app.post(routerPath(ADMIN_PATHS.disable), administrator, (c) => {
    const userId = userIdOf(c);
    const { changed, sessionsEnded } = disableAccount(deps, c.get('admin'), userId);
    logAction(c, 'auth_admin_account_disabled', 'account disabled', userId, { changed, sessions_ended: sessionsEnded });
    const body: v.InferOutput<typeof S.AccessChangedSchema> = { id: userId, disabled: true, changed, sessions_ended: sessionsEnded };
    return c.json(body, 200, NO_STORE);
  });

  app.post(routerPath(ADMIN_PATHS.enable), administrator, (c) => {
    const userId = userIdOf(c);
    const { changed } = enableAccount(deps, c.get('admin'), userId);
    logAction(c, 'auth_admin_account_enabled', 'account enabled', userId, { changed });
    const body: v.InferOutput<typeof S.AccessChangedSchema> = { id: userId, disabled: false, changed, sessions_ended: 0 };
    return c.json(body, 200, NO_STORE);
  });

  app.post(routerPath(ADMIN_PATHS.revokeSessions), administrator, limit, async (c) => {
    const userId = userIdOf(c);
    const body = parse(S.RevokeSessionsBodySchema, await readJson(c));
    const revoked = await revokeSessionsOf(deps, c.get('admin'), userId, 'handle' in body ? body.handle : undefined);
    logAction(c, 'auth_admin_sessions_revoked', 'sessions revoked', userId, { revoked, one: 'handle' in body });
    const answer: v.InferOutput<typeof S.AdminSessionsRevokedSchema> = { revoked };
    return c.json(answer, 200, NO_STORE);
  });

  app.post(routerPath(ADMIN_PATHS.resetLink), administrator, async (c) => {
    const userId = userIdOf(c);
    await sendResetLink(deps, c.get('admin'), userId, clientAddress(c.req.raw.headers, deps.config.clientAddressTrusted));
    logAction(c, 'auth_admin_reset_link_sent', 'reset link queued', userId);
    const answer: v.InferOutput<typeof S.ResetLinkQueuedSchema> = { status: 'queued' };
    return c.json(answer, 202, NO_STORE);
  });

  app.delete(routerPath(ADMIN_PATHS.user), administrator, async (c) => {
    const userId = userIdOf(c);
    const removed = await deleteAccountAsAdmin(deps, c.get('admin'), userId);
    logAction(c, 'auth_admin_account_deleted', 'account deleted', userId, { removed_streams: removed });
    return c.body(null, 204, NO_STORE);
  });

  refuseOtherMethods(app, ADMIN_OPERATIONS, logger);
  app.onError((error, c) => {
    const failure = AppError.from(error);
    return errorResponse(c, failure, logger, failure.code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : undefined);
  });
  return app;
}
