/** The operations of changing the email address (./email-change-routes.ts) and their schemas, for the API document. */
import * as v from 'valibot';
import type { ApiContract, OperationSpec } from '../../http/operation.ts';
import { MailLinkTokenSchema } from '../application/index.ts';
import { FORM_OR_NONE, JSON_OR_FORM, timestamp } from '../operation-words.ts';
import { EMAIL_CHANGE_PATHS, EmailChangeSchema, EmailChangeTokenSchema } from './email-change-routes.ts';

const MailToken = v.pipe(MailLinkTokenSchema, v.description("the `token` query parameter of the mailed link's address: the link's id, a dot, its secret"));

/** The routes' bodies as published: their schemas, with what the routes check after parsing stated. */
export const EmailChangeBodySchema = v.object({
  ...EmailChangeSchema.entries,
  email: v.pipe(v.string(), v.email(), v.maxLength(254), v.description('the new address (RFC 5321: at most 254 octets)')),
  password: v.optional(
    v.pipe(
      EmailChangeSchema.entries.password.wrapped,
      v.description('the account password; omit it after a provider or passkey sign-in of the last 5 minutes (an account without a password)'),
    ),
  ),
});
export const EmailChangeTokenBodySchema = v.object({ ...EmailChangeTokenSchema.entries, token: MailToken });
export const EmailChangeRequestedSchema = v.object({
  status: v.literal('accepted'),
  email: v.pipe(v.string(), v.description('the new address, normalized: the link went there')),
  expires_at: timestamp('until when the link works (24 hours)'),
});
export const EmailChangeCancelledSchema = v.object({ status: v.literal('cancelled') });
export const EmailChangedSchema = v.object({ status: v.literal('email_changed'), email: v.pipe(v.string(), v.description("the account's address from now on, verified")) });
export const EmailChangeUndoneSchema = v.object({
  status: v.literal('email_change_undone'),
  address_restored: v.pipe(v.boolean(), v.description('false when the old address belongs to another account now: the account keeps the address it has')),
  sessions_ended: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('every session of the account ended')),
});

const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'post',
    path: EMAIL_CHANGE_PATHS.change,
    operationId: 'requestEmailChange',
    tag: 'auth',
    summary: 'Ask to change the address of the signed-in account: a link is mailed to the new address',
    security: 'session',
    description: `Re-authentication: the account password, or, for an account without one, a provider or passkey sign-in of the last 5 minutes (else 403; wrong passwords count in the login's own limits, 429 with Retry-After past them). Nothing changes until the link (24 hours, once, only the newest) is opened; a new request replaces the pending one. The answer does not say whether the address has an account. The account's own address: 409. At most 3 change mails per new address per hour, and the mailbox, domain and client budgets (429). Without AUTH_PUBLIC_BASE_URL: 404. ${FORM_OR_NONE} A form post gets a 303 to /dashboard?notice=email_change_sent; a refused one, back to /dashboard with the error code (to /login when signed out).`,
    body: { schema: 'EmailChangeBody', parsedWith: EmailChangeSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '202': { kind: 'json', schema: 'EmailChangeRequested', description: 'the link is on its way to the new address' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard with the notice, or back with the error code', headers: ['Location'] },
    },
    errors: ['validation', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: EMAIL_CHANGE_PATHS.cancel,
    operationId: 'cancelEmailChange',
    tag: 'auth',
    summary: 'Cancel the pending change of address: its link no longer works',
    security: 'session',
    description: `Any body is ignored. Without a pending change it answers the same. Without AUTH_PUBLIC_BASE_URL: 404. ${FORM_OR_NONE} A form post gets a 303 to /dashboard?notice=email_change_cancelled (to /login when signed out).`,
    success: {
      '200': { kind: 'json', schema: 'EmailChangeCancelled', description: 'no change is pending' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard with the notice', headers: ['Location'] },
    },
    errors: ['unauthorized', 'forbidden', 'not_found', 'payload_too_large', 'store', 'internal'],
  },
  {
    method: 'post',
    path: EMAIL_CHANGE_PATHS.confirm,
    operationId: 'confirmEmailChange',
    tag: 'auth',
    summary: 'Make the new address the account’s, with the link mailed to it',
    description: `\`token\` is the link's. The account's claim moves to the new address at once (never both addresses and never neither are the account's), the new address is verified, and the old address is mailed a notice with a link that undoes the change for 7 days. Provider sign-ins keep reaching the account. A used, expired or superseded link: 404. Posted from a browser signed in to another account: 403, nothing changed. The new address taken meanwhile by another account: 409, the account keeps its address. ${FORM_OR_NONE} A form post gets a 303 to /dashboard (signed in) or /login with the notice; a refused one, back to /confirm-email-change with the link's token and the error code.`,
    body: { schema: 'EmailChangeTokenBody', parsedWith: EmailChangeTokenSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'EmailChanged', description: 'the address is changed' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard or /login with the notice, or back with the error code', headers: ['Location'] },
    },
    errors: ['validation', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'post',
    path: EMAIL_CHANGE_PATHS.undo,
    operationId: 'undoEmailChange',
    tag: 'auth',
    summary: 'Undo a change of address with the link mailed to the old address; every session ends',
    description: `\`token\` is the notice's link (7 days, once). Every session of the account ends (this browser's cookie is cleared), a pending change is dropped, and the account moves back to the old address while no other account holds it; when one does, the account keeps the address it has (\`address_restored: false\`). A used or expired link: 404. Posted from a browser signed in to another account: 403, nothing changed. ${FORM_OR_NONE} A form post gets a 303 to /login with the notice; a refused one, back to /undo-email-change with the link's token and the error code.`,
    body: { schema: 'EmailChangeTokenBody', parsedWith: EmailChangeTokenSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'EmailChangeUndone', description: 'every session ended; whether the old address is back', headers: ['Set-Cookie-Cleared'] },
      '303': { kind: 'redirect', description: 'form post: to /login with the notice, or back with the error code', headers: ['Location', 'Set-Cookie-Cleared?'] },
    },
    errors: ['validation', 'forbidden', 'not_found', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
];

export const EMAIL_CHANGE_CONTRACT: ApiContract = {
  schemas: {
    EmailChangeBody: EmailChangeBodySchema,
    EmailChangeTokenBody: EmailChangeTokenBodySchema,
    EmailChangeRequested: EmailChangeRequestedSchema,
    EmailChangeCancelled: EmailChangeCancelledSchema,
    EmailChanged: EmailChangedSchema,
    EmailChangeUndone: EmailChangeUndoneSchema,
  },
  operations: OPERATIONS,
};
