/**
 * The administration API's operations and schemas, declared beside its routes (./routes.ts) for
 * the API document (src/openapi/ assembles it).
 */
import type { ApiContract, OperationSpec, ParameterSpec } from '../../http/operation.ts';
import * as S from './wire-schemas.ts';
import { MAX_SCANNED } from '../application/user-list.ts';

export const ADMIN_PATHS = {
  users: '/api/admin/users',
  user: '/api/admin/users/{id}',
  disable: '/api/admin/users/{id}/disable',
  enable: '/api/admin/users/{id}/enable',
  revokeSessions: '/api/admin/users/{id}/sessions/revoke',
  resetLink: '/api/admin/users/{id}/reset-link',
} as const;

const USER_ID: ParameterSpec = { name: 'id', in: 'path', required: true, description: 'the account id (`id` in the user list)', schema: S.UserIdSchema };
const TOKEN =
  'Needs the operator token storage status takes (ES256, the configured issuer and audience, a multi-factor `amr` or `acr`, the `system_admin` role; `npm run auth:token` in development): missing or invalid → 401 with `WWW-Authenticate: Bearer`, valid without those claims → 403.';
/** Every administrative route: the token's refusals, an unknown account, the store. */
const ADMIN_ERRORS = ['unauthorized', 'forbidden', 'not_found', 'store', 'internal'] as const;
/** A change racing another change of the same account. */
const WRITE_ERRORS = [...ADMIN_ERRORS, 'conflict', 'concurrency'] as const;
const RECORDED = 'Recorded as an auth event naming the administrator’s subject (storage status counts it).';

export const ADMIN_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: ADMIN_PATHS.users,
    operationId: 'adminListUsers',
    tag: 'admin',
    summary: 'List and search accounts by address prefix',
    security: 'operator',
    description: `${TOKEN} Accounts in a stable order (by account id), a page at a time: pass a page's \`next\` as \`cursor\` with the same \`q\` for the next one, until \`next\` is null. A search is a bounded scan (no index holds an address, so an erased account leaves none): each request reads at most ${MAX_SCANNED} accounts, so a page can hold fewer than \`limit\`, even none, while \`next\` says where the scan goes on.`,
    parameters: [
      { name: 'q', in: 'query', description: 'the start of the address; ASCII letters match in any case', schema: S.AddressPrefixSchema },
      { name: 'cursor', in: 'query', description: 'the `next` of the previous page', schema: S.CursorSchema },
      { name: 'limit', in: 'query', description: 'accounts per page, 1 to 100 (default 50)', schema: S.PageLimitTextSchema },
    ],
    success: { '200': { kind: 'json', schema: 'AdminUserList', description: 'one page of accounts' } },
    errors: ['validation', 'unauthorized', 'forbidden', 'store', 'internal'],
  },
  {
    method: 'get',
    path: ADMIN_PATHS.user,
    operationId: 'adminShowUser',
    tag: 'admin',
    summary: 'One account: how it signs in, its live sessions, whether it is disabled',
    security: 'operator',
    description: `${TOKEN} Never a hash, a token, a session id or a provider subject: sessions are named by their public handle.`,
    parameters: [USER_ID],
    success: { '200': { kind: 'json', schema: 'AdminUserSummary', description: 'the account' } },
    errors: ADMIN_ERRORS,
  },
  {
    method: 'post',
    path: ADMIN_PATHS.disable,
    operationId: 'adminDisableUser',
    tag: 'admin',
    summary: 'Disable an account: no sign-in by any method, its sessions end at once',
    security: 'operator',
    description: `${TOKEN} Any body is ignored. A sign-in of a disabled account, by password, passkey or provider, is refused with 403 \`account_disabled\`. ${RECORDED}`,
    parameters: [USER_ID],
    success: { '200': { kind: 'json', schema: 'AdminAccessChanged', description: 'the account is disabled' } },
    errors: WRITE_ERRORS,
  },
  {
    method: 'post',
    path: ADMIN_PATHS.enable,
    operationId: 'adminEnableUser',
    tag: 'admin',
    summary: 'Enable a disabled account again',
    security: 'operator',
    description: `${TOKEN} Any body is ignored. ${RECORDED}`,
    parameters: [USER_ID],
    success: { '200': { kind: 'json', schema: 'AdminAccessChanged', description: 'the account may sign in again' } },
    errors: WRITE_ERRORS,
  },
  {
    method: 'post',
    path: ADMIN_PATHS.revokeSessions,
    operationId: 'adminRevokeUserSessions',
    tag: 'admin',
    summary: 'End every session of an account, or one by its public handle',
    security: 'operator',
    description: `${TOKEN} A handle that names no live session of the account: 404. ${RECORDED}`,
    parameters: [USER_ID],
    body: { schema: 'AdminRevokeSessions', parsedWith: S.RevokeSessionsBodySchema, mediaTypes: ['application/json'], required: true },
    success: { '200': { kind: 'json', schema: 'AdminSessionsRevoked', description: 'how many sessions ended' } },
    errors: [...WRITE_ERRORS, 'validation', 'payload_too_large', 'unsupported_media_type'],
  },
  {
    method: 'post',
    path: ADMIN_PATHS.resetLink,
    operationId: 'adminSendResetLink',
    tag: 'admin',
    summary: 'Mail the account a password reset link',
    security: 'operator',
    description: `${TOKEN} Any body is ignored. The link "Forgot password?" mails (30 minutes, single use), within the same budget per address (429 with Retry-After past it). A provider account without a password gets the link that sets its first one; an account that owns no address: 409. Without AUTH_PUBLIC_BASE_URL: 404. ${RECORDED}`,
    parameters: [USER_ID],
    success: { '202': { kind: 'json', schema: 'AdminResetLinkQueued', description: 'the mail is in the outbox' } },
    errors: [...WRITE_ERRORS, 'rate_limited'],
  },
  {
    method: 'delete',
    path: ADMIN_PATHS.user,
    operationId: 'adminDeleteUser',
    tag: 'admin',
    summary: 'Delete an account (the erasure of self-deletion)',
    security: 'operator',
    description: `${TOKEN} Every stream holding the account's personal data is removed, with its read-model documents and queued mail, as when its owner deletes it (docs/storage.md, "Account deletion"). ${RECORDED}`,
    parameters: [USER_ID],
    success: { '204': { kind: 'empty', description: 'the account is erased' } },
    errors: WRITE_ERRORS,
  },
];

export const ADMIN_CONTRACT: ApiContract = {
  schemas: {
    AdminUserList: S.UserListSchema,
    AdminUserSummary: S.UserSummarySchema,
    AdminAccessChanged: S.AccessChangedSchema,
    AdminRevokeSessions: S.RevokeSessionsBodySchema,
    AdminSessionsRevoked: S.AdminSessionsRevokedSchema,
    AdminResetLinkQueued: S.ResetLinkQueuedSchema,
  },
  requestExamples: { AdminRevokeSessions: { all: true } },
  operations: ADMIN_OPERATIONS,
};
