/**
 * The administration API's wire shapes: the path, query and body it validates, and the answers it
 * publishes (./contract.ts). Answers are built by plain code; `Exact` ties each schema to its type.
 */
import * as v from 'valibot';
import { timestamp } from '../operation-words.ts';
import { MAX_USER_PAGE } from '../application/user-list.ts';

/** Account ids are random UUIDs (RFC 9562 §5.4, `crypto.randomUUID`). */
export const UserIdSchema = v.pipe(
  v.string(),
  v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a user id is a lower-case UUID'),
  v.description('the account id (`id` in the user list)'),
);

/** A page cursor: the `next` of the page before, as it was given. */
export const CursorSchema = v.pipe(
  v.string(),
  v.maxLength(400, 'cursor is the `next` of a previous page'),
  // Unpadded base64url (RFC 4648 §5): never a length of 4n + 1.
  v.regex(/^(?:[A-Za-z0-9_-]{4})*[A-Za-z0-9_-]{2,4}$/, 'cursor is the `next` of a previous page'),
  v.description('the `next` of the previous page'),
);

/** The address prefix searched for; ASCII letters are matched in any case, as addresses are stored. */
export const AddressPrefixSchema = v.pipe(
  v.string(),
  v.maxLength(254, 'q is at most 254 characters'),
  v.description('the start of the address, e.g. `ada@` or `ada@exa`; empty or absent: every account'),
);

/** `limit` as the query carries it (MAX_USER_PAGE is 100). */
export const PageLimitTextSchema = v.pipe(v.string(), v.regex(/^(100|[1-9][0-9]?)$/, `limit is an integer from 1 to ${MAX_USER_PAGE}`));
export const PageLimitSchema = v.pipe(PageLimitTextSchema, v.transform(Number));

/** POST …/sessions/revoke: every session, or the one with a public handle. */
export const RevokeSessionsBodySchema = v.union(
  [
    v.strictObject({ all: v.pipe(v.literal(true), v.description('end every session of the account')) }),
    v.strictObject({ handle: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/), v.description('the public handle of one session (`id` in the summary\u2019s sessions)')) }),
  ],
  'body must be {"all": true} or {"handle": "<session handle>"}',
);

const count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

export const UserListSchema = v.object({
  users: v.array(
    v.object({
      id: v.pipe(v.string(), v.description('the account id')),
      email: v.pipe(v.nullable(v.string()), v.description('the normalized address; null for a provider account without one')),
      created_at: timestamp('RFC 3339, UTC'),
      disabled: v.boolean(),
    }),
  ),
  next: v.pipe(v.nullable(v.string()), v.description('where the scan goes on, for `cursor`; null once every account was scanned')),
});

export const UserSummarySchema = v.object({
  id: v.string(),
  email: v.nullable(v.string()),
  email_verified: v.pipe(v.boolean(), v.description('the owner followed a link mailed to the address, or a provider vouched for it')),
  created_at: timestamp('RFC 3339, UTC'),
  registered_with: v.pipe(v.string(), v.description('password or oauth:<provider>')),
  disabled: v.boolean(),
  access_changed_at: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('when an administrator last disabled or enabled it')),
  access_changed_by: v.pipe(v.nullable(v.string()), v.description('the subject of that administrator')),
  sign_in_methods: v.pipe(v.array(v.string()), v.description('the ways in the account has: password, passkey, oauth:<provider>')),
  providers: v.pipe(v.array(v.string()), v.description('linked sign-in providers')),
  passkeys: v.array(
    v.object({
      name: v.string(),
      created_at: timestamp('RFC 3339, UTC'),
      last_used_at: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
      synced: v.pipe(v.boolean(), v.description('a synced (multi-device) passkey')),
    }),
  ),
  sessions: v.array(
    v.object({
      id: v.pipe(v.string(), v.description('the public handle (for sessions/revoke); never the session id')),
      device: v.string(),
      method: v.pipe(v.string(), v.description('password, passkey or oauth:<provider>')),
      issued_at: timestamp('RFC 3339, UTC'),
      last_seen_at: timestamp('RFC 3339, UTC'),
      expires_at: timestamp('RFC 3339, UTC'),
    }),
  ),
});

export const AccessChangedSchema = v.object({
  id: v.string(),
  disabled: v.boolean(),
  changed: v.pipe(v.boolean(), v.description('false when the account already was in that state')),
  sessions_ended: count('sessions ended by this change'),
});

export const AdminSessionsRevokedSchema = v.object({ revoked: count('sessions ended') });
export const ResetLinkQueuedSchema = v.object({ status: v.literal('queued') });
