/**
 * The operations of the auth REST routes (routes.ts, session-routes.ts, account-routes.ts,
 * mail-routes.ts) and the schemas they name, for the API document (src/openapi/ assembles them).
 */
import * as v from 'valibot';
import type { ApiContract, OperationSpec, ParameterSpec } from '../../http/operation.ts';
import { JSON_OR_FORM, FORM_OR_NONE, READ, SESSION_WRITE } from '../operation-words.ts';
import { AUTH_PATHS } from './routes.ts';
import { ACCOUNT_PATHS } from './account-routes.ts';
import { ChangeSchema, ForgotSchema, MAIL_PATHS, ResetSchema, VerifySchema } from './mail-routes.ts';
import * as S from './wire-schemas.ts';

const JSON_ONLY = ['application/json'] as const;
const SESSION_HANDLE: ParameterSpec = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'the public handle of a session (`id` in the session list), never the session id',
  schema: v.string(),
};
const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: AUTH_PATHS.capabilities,
    operationId: 'getAuthCapabilities',
    tag: 'auth',
    summary: 'What sign-in methods are offered',
    success: { '200': { kind: 'json', schema: 'Capabilities', description: 'password policy and the OAuth providers offered' } },
    errors: ['internal'],
  },
  {
    method: 'get',
    path: AUTH_PATHS.session,
    operationId: 'getSession',
    tag: 'auth',
    summary: 'Who is signed in',
    security: 'session',
    success: { '200': { kind: 'json', schema: 'SessionView', description: 'the session of the cookie, or `{"authenticated":false}`' } },
    errors: READ,
  },
  {
    method: 'post',
    path: AUTH_PATHS.register,
    operationId: 'registerWithPassword',
    tag: 'auth',
    summary: 'Create an account (never signs in)',
    description:
      'The answer does not tell whether the email was already taken (OWASP account enumeration): a free and a taken email get the same 202 and body, no session, and a taken one changes nothing. Sign in next with the login operation. A cross-site request (by `Origin`, else `Sec-Fetch-Site`) is refused with 403. Form posts get 303 redirects instead of JSON (post/redirect/get): to `/login?notice=registered` on acceptance, and back to `/login?error=<code>&form=register` when refused (with `reason` for a refused password, `retry_at` in Unix seconds for a rate limit), the typed email kept in a short-lived cookie; the page shows the error beside its field.',
    body: { schema: 'NewCredentials', parsedWith: S.CredentialsSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '202': { kind: 'json', schema: 'RegistrationAccepted', description: 'accepted: the account exists now if the email was free (JSON request); no session' },
      '303': { kind: 'redirect', description: 'form post: to /login with the neutral notice, or back to /login with the error code', headers: ['Location'] },
    },
    errors: ['validation', 'forbidden', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
    links: {
      LoginWithTheSameCredentials: {
        operationId: 'loginWithPassword',
        description: 'sign in with the account just created',
        requestBody: { email: '$request.body#/email', password: '$request.body#/password' },
      },
    },
  },
  {
    method: 'post',
    path: AUTH_PATHS.login,
    operationId: 'loginWithPassword',
    tag: 'auth',
    summary: 'Sign in with email and password',
    description:
      'Same inputs and modes as register. A wrong email and a wrong password get one fixed message; repeated failures are rate limited (429 with Retry-After). The right password of an account an administrator disabled: 403 `account_disabled`.',
    body: { schema: 'Credentials', parsedWith: S.CredentialsSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'SignedIn', description: 'signed in (JSON request)', headers: ['Set-Cookie'] },
      '303': {
        kind: 'redirect',
        description: 'form post: to `next` (with the session cookie) or, refused, back to /login with the error code (and `retry_at` for a rate limit)',
        headers: ['Location'],
      },
    },
    errors: ['validation', 'invalid_credentials', 'forbidden', 'account_disabled', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
    links: { SessionAfterLogin: { operationId: 'getSession', description: 'the session the cookie now carries' } },
  },
  {
    method: 'post',
    path: AUTH_PATHS.logout,
    operationId: 'logout',
    tag: 'auth',
    summary: 'Revoke the session and clear the cookie',
    security: 'session',
    description: 'Any body is ignored. A form post is answered with a 303 to /login.',
    success: {
      '200': { kind: 'json', schema: 'SignedOut', description: 'signed out', headers: ['Set-Cookie-Cleared'] },
      '303': { kind: 'redirect', description: 'form post: to /login', headers: ['Location', 'Set-Cookie-Cleared'] },
    },
    errors: ['forbidden', 'payload_too_large', 'store', 'internal'],
  },
  {
    method: 'get',
    path: AUTH_PATHS.sessions,
    operationId: 'listSessions',
    tag: 'auth',
    summary: "The signed-in user's sessions",
    security: 'session',
    success: { '200': { kind: 'json', schema: 'SessionList', description: 'every active session of this user; `current` marks the one of the cookie' } },
    errors: ['unauthorized', 'store', 'internal'],
    links: { RevokeOneSession: { operationId: 'revokeSession', description: 'end the first listed session', parameters: { id: '$response.body#/sessions/0/id' } } },
  },
  {
    method: 'delete',
    path: '/api/auth/sessions/{id}',
    operationId: 'revokeSession',
    tag: 'auth',
    summary: 'End one of your sessions',
    security: 'session',
    description: `${FORM_OR_NONE} A handle that is not one of your sessions answers 404. Ending the current session also clears its cookie.`,
    parameters: [SESSION_HANDLE],
    success: { '204': { kind: 'empty', description: 'the session ended', headers: ['Set-Cookie-Cleared?'] } },
    errors: SESSION_WRITE,
  },
  {
    method: 'post',
    path: '/api/auth/sessions/{id}/revoke',
    operationId: 'revokeSessionFormPost',
    tag: 'auth',
    summary: 'End one of your sessions (HTML form variant of DELETE)',
    security: 'session',
    description: `${FORM_OR_NONE} Any body is ignored. Answers 303 to /dashboard, or to /login when it was the current session (whose cookie is cleared).`,
    parameters: [SESSION_HANDLE],
    success: { '303': { kind: 'redirect', description: 'to /dashboard, or to /login after ending the current session', headers: ['Location', 'Set-Cookie-Cleared?'] } },
    errors: [...SESSION_WRITE, 'payload_too_large'],
  },
  {
    method: 'delete',
    path: ACCOUNT_PATHS.account,
    operationId: 'deleteAccount',
    tag: 'auth',
    summary: 'Delete your account: every session ends, identities unlink, personal data is erased',
    security: 'session',
    description:
      'Re-authentication: the account password in the body, or no password when the current session comes from a provider or passkey sign-in at most 5 minutes old (else 403). The email, password hash, provider subjects and device hints are removed from the store, events included; the same email can register again, unless the address belongs to another account (a provider account shows an address a password account owns: the owner keeps it). Wrong passwords count in the login’s own limits, the account-wide budget included (429 with Retry-After past them).',
    body: { schema: 'AccountDeletion', parsedWith: S.AccountDeletionSchema, mediaTypes: JSON_ONLY, required: false },
    success: { '204': { kind: 'empty', description: 'the account is deleted; the session cookie is cleared', headers: ['Set-Cookie-Cleared'] } },
    errors: ['validation', 'unauthorized', 'forbidden', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'concurrency', 'store', 'internal'],
  },
  {
    method: 'post',
    path: ACCOUNT_PATHS.deleteForm,
    operationId: 'deleteAccountFormPost',
    tag: 'auth',
    summary: 'Delete your account (HTML form variant of DELETE, the /dashboard button)',
    security: 'session',
    description:
      'Field `password` (empty after a fresh provider sign-in). Answers 303 to /login once deleted, or back to /dashboard with the error code (`forbidden` when re-authentication fails).',
    body: { schema: 'AccountDeletion', parsedWith: S.AccountDeletionSchema, mediaTypes: ['application/x-www-form-urlencoded', 'multipart/form-data'], required: false },
    success: {
      '303': { kind: 'redirect', description: 'to /login (deleted, cookie cleared) or back to /dashboard (not re-authenticated)', headers: ['Location', 'Set-Cookie-Cleared?'] },
    },
    errors: ['validation', 'unauthorized', 'forbidden', 'rate_limited', 'payload_too_large', 'concurrency', 'store', 'internal'],
  },
  {
    method: 'post',
    path: AUTH_PATHS.revokeAll,
    operationId: 'revokeAllSessions',
    tag: 'auth',
    summary: 'Sign out everywhere: end every session of this user',
    security: 'session',
    description: `${FORM_OR_NONE} No body, or \`remove_passkeys\` (JSON, or a form checkbox) to remove every passkey of the account too: a passkey signs in on its own and no session end touches it. The current session ends too and its cookie is cleared; a form post is answered with a 303 to /login.`,
    body: { schema: 'RevokeAllBody', parsedWith: S.RevokeAllBodySchema, mediaTypes: JSON_OR_FORM, required: false },
    success: {
      '200': { kind: 'json', schema: 'SessionsRevoked', description: 'how many sessions ended', headers: ['Set-Cookie-Cleared'] },
      '303': {
        kind: 'redirect',
        description: 'form post: to /login, the cookie cleared; refused, back to /dashboard with the error code',
        headers: ['Location', 'Set-Cookie-Cleared?'],
      },
    },
    errors: ['validation', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: MAIL_PATHS.forgot,
    operationId: 'requestPasswordReset',
    tag: 'auth',
    summary: 'Forgot password: mail a reset link to the address',
    description: `The same answer, as quick, for an address with an account and one without: whether a link is mailed is decided after the response is sent. The link (from AUTH_PUBLIC_BASE_URL) works once, for 30 minutes, only while it is the newest and the password unchanged; at most 3 are mailed per address per hour (more requests get the same answer and send nothing). Without AUTH_PUBLIC_BASE_URL there is no mail: 404. ${FORM_OR_NONE} A form post gets a 303 to /forgot-password?notice=sent; a refused one, back to /forgot-password with the error code.`,
    body: { schema: 'ForgotPasswordBody', parsedWith: ForgotSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '202': { kind: 'json', schema: 'ResetRequested', description: 'accepted, whatever the address' },
      '303': { kind: 'redirect', description: 'form post: to /forgot-password with the neutral notice', headers: ['Location'] },
    },
    errors: ['validation', 'forbidden', 'not_found', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: MAIL_PATHS.reset,
    operationId: 'resetPassword',
    tag: 'auth',
    summary: 'Set a new password with a mailed reset link',
    description: `\`token\` is the link's. The new password is checked first (a refused one leaves the link working); then the link is used up, the password set, every session of the account ended (this browser's cookie cleared) and the address told by mail. A reset proves control of the mailbox: on an account whose address was unverified it verifies the address and removes every passkey (each was added before that proof, possibly by whoever registered the address); otherwise \`remove_passkeys\` removes them, and the answer lists the passkeys left. A used, expired or superseded link, or one issued before the password last changed: 404. Posted from a browser signed in to another account: 403, nothing changed. ${FORM_OR_NONE} A form post gets a 303 to /login?notice=password_reset, or, when passkeys are left, to /remove-passkeys (a page listing them with a form to remove them, its link proving the mailbox); a refused one, back to /reset-password with the link's token and the error code.`,
    body: { schema: 'ResetPasswordBody', parsedWith: ResetSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'PasswordReset', description: 'the password is set; every session ended', headers: ['Set-Cookie-Cleared'] },
      '303': {
        kind: 'redirect',
        description: 'form post: to /login with the notice, the cookie cleared (or to /remove-passkeys); refused, back to /reset-password with the error code',
        headers: ['Location', 'Set-Cookie-Cleared?'],
      },
    },
    errors: ['validation', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: MAIL_PATHS.change,
    operationId: 'changePassword',
    tag: 'auth',
    summary: 'Change the password of the signed-in account',
    security: 'session',
    description: `The current password is required (a wrong one: 401, counted in the login's own limits, the account-wide budget included: 429 with Retry-After past them). The other sessions of the account end; this one stays; with \`remove_passkeys\` every passkey of the account is removed too (a passkey signs in on its own, past any password). The address is told by mail. Outstanding reset links die. ${FORM_OR_NONE} A form post gets a 303 to /dashboard?notice=password_changed; a refused one, back to /dashboard with the error code (to /login when signed out).`,
    body: { schema: 'ChangePasswordBody', parsedWith: ChangeSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'PasswordChanged', description: 'the password is changed' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard with the notice', headers: ['Location'] },
    },
    errors: ['validation', 'unauthorized', 'invalid_credentials', 'forbidden', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: MAIL_PATHS.verify,
    operationId: 'verifyEmail',
    tag: 'auth',
    summary: 'Verify the address with a mailed link',
    description: `\`token\` is the link's (mailed at registration and on "resend"; 24 hours, once, only the newest). The address of the link's account is marked verified; this first proof of the mailbox removes every passkey the account held (added before it, possibly by whoever registered the address). A used, expired or superseded link: 404. Posted from a browser signed in to another account: 403, nothing changed. ${FORM_OR_NONE} A form post gets a 303 to /dashboard (signed in) or /login with the notice; a refused one, back to /verify-email with the link's token and the error code.`,
    body: { schema: 'VerifyEmailBody', parsedWith: VerifySchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'EmailVerified', description: 'the address is verified' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard or /login with the notice', headers: ['Location'] },
    },
    errors: ['validation', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: MAIL_PATHS.resend,
    operationId: 'resendEmailVerification',
    tag: 'auth',
    summary: 'Mail a new verification link to the signed-in account',
    security: 'session',
    description: `Any body is ignored. The previous link dies. At most 3 verification mails per address per hour (429 with Retry-After); an address verified already: 409. Without AUTH_PUBLIC_BASE_URL: 404. ${FORM_OR_NONE} A form post gets a 303 to /dashboard?notice=verification_sent; a refused one, back to /dashboard with the error code (to /login when signed out).`,
    success: {
      '202': { kind: 'json', schema: 'VerificationResent', description: 'a new link is on its way' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard with the notice', headers: ['Location'] },
    },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'payload_too_large', 'store', 'internal'],
  },
  {
    method: 'get',
    path: AUTH_PATHS.storageStatus,
    operationId: 'getStorageStatus',
    tag: 'auth',
    summary: 'Auth storage evidence for operators',
    security: 'operator',
    description:
      'Needs an operator token (HS256 JWT, `npm run auth:token`) with `aal: aal2` and the `system_admin` role: missing or invalid → 401 with `WWW-Authenticate: Bearer`, valid without those claims → 403.',
    success: { '200': { kind: 'json', schema: 'StorageStatus', description: 'event counts, latest sequence, projection checkpoints' } },
    errors: ['unauthorized', 'forbidden', 'store', 'internal'],
  },
];

export const AUTH_REST_CONTRACT: ApiContract = {
  schemas: {
    Credentials: S.CredentialsSchema,
    NewCredentials: S.NewCredentialsSchema,
    AccountDeletion: S.AccountDeletionSchema,
    SessionView: S.SessionViewSchema,
    SignedIn: S.SignedInSchema,
    RegistrationAccepted: S.RegistrationAcceptedSchema,
    SignedOut: S.SignedOutSchema,
    Capabilities: S.CapabilitiesSchema,
    StorageStatus: S.StorageStatusSchema,
    SessionList: S.SessionListSchema,
    SessionsRevoked: S.SessionsRevokedSchema,
    RevokeAllBody: S.RevokeAllBodySchema,
    ForgotPasswordBody: S.ForgotPasswordBodySchema,
    ResetPasswordBody: S.ResetPasswordBodySchema,
    ChangePasswordBody: S.ChangePasswordBodySchema,
    VerifyEmailBody: S.VerifyEmailBodySchema,
    ResetRequested: S.ResetRequestedSchema,
    PasswordReset: S.PasswordResetSchema,
    PasswordChanged: S.PasswordChangedSchema,
    EmailVerified: S.EmailVerifiedSchema,
    VerificationResent: S.VerificationResentSchema,
  },
  // Register then login with the same pair: both succeed on both hosts (non-ASCII passwords too since NFKC runs in the guest).
  requestExamples: {
    Credentials: { email: 'ada@example.com', password: 'correct horse battery staple' },
    NewCredentials: { email: 'ada@example.com', password: 'correct horse battery staple' },
  },
  operations: OPERATIONS,
};
