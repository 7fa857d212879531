/**
 * Single-use links mailed to an account's address: email verification (24 h), password reset
 * (30 min), passkey review (7 days: the "a passkey was added" mail's way to remove it), and an
 * address change's confirmation (24 h, to the new address, keyed by the account rather than an
 * address) and undo (7 days, to the old address); a new kind is a row in the tables below. A link's token is `<link id>.<secret>`: the
 * id (16 random bytes, not secret) names the link's record in key-value (the account it is for,
 * its expiry); the secret (32 random bytes) is made by whoever delivers the mail, which stores
 * only its SHA-256 (WIT `mail.mail-secret`, src/contract/mail-secrets.ts). So no store holds a
 * working link, the mail outbox included: the queued text carries the id and a placeholder.
 *
 * A link works once (its record is `take`n), only while it is the newest of its kind for the
 * address (issuing one replaces the pointer to the previous), only before its expiry, only with
 * the secret of its newest delivered copy (a copy delivered twice has a new secret each time), and
 * a reset link only while the password is the one it was issued under (the email stream's
 * password revision). The presented secret's hash is compared in constant time. Links are built
 * from AUTH_PUBLIC_BASE_URL, never from the request.
 */
import * as v from 'valibot';
import type { MailSecret } from '../../platform/ports.ts';
import { timingSafeEqual } from '../oauth/random-tokens.ts';
import type { Account } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { randomToken, sha256Hex } from './secrets.ts';
import { authNamespaces } from './streams.ts';

export type MailLinkKind = 'verify' | 'reset' | 'passkeys' | 'email_change' | 'email_undo';

export const MAIL_LINK_TTL_MS: Record<MailLinkKind, number> = {
  verify: 24 * 3_600_000,
  reset: 30 * 60_000,
  passkeys: 7 * 24 * 3_600_000,
  email_change: 24 * 3_600_000,
  email_undo: 7 * 24 * 3_600_000,
};
export const MAIL_LINK_PATHS: Record<MailLinkKind, string> = {
  verify: '/verify-email',
  reset: '/reset-password',
  passkeys: '/remove-passkeys',
  email_change: '/confirm-email-change',
  email_undo: '/undo-email-change',
};

/** A token as it arrives in a link: the link id (22 base64url characters), a dot, the secret (43); checked before any lookup. */
export const MailLinkTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/));

/** Where the secret goes in the queued text; the deliverer replaces it (the link's id beside it tells links apart). */
const SECRET_PLACEHOLDER = '{mail-link-secret}';

const RecordSchema = v.object({
  user_id: v.string(),
  email_hash: v.string(),
  password_revision: v.string(),
  expires_at: v.number(),
});

/** What a redeemed or inspected link is for. */
export interface MailLinkTarget {
  userId: string;
  emailHash: string;
  passwordRevision: bigint;
}

/** A link's id, made before the account is known (so known and unknown addresses cost the same), issued later. */
export interface PreparedLink {
  id: string;
}

/** A link ready to be mailed: its URL (the secret a placeholder in it) and the secret the deliverer makes. */
export interface IssuedLink {
  url: string;
  secrets: MailSecret[];
}

export function prepareMailLink(): PreparedLink {
  return { id: randomToken(16) };
}

const newestKey = (kind: MailLinkKind, emailHash: string) => `${kind}:${emailHash}`;
const linkKey = (kind: MailLinkKind, id: string) => `${kind}:${id}`;

function storeLinkRecord(deps: AuthDeps, kind: MailLinkKind, account: Account, emailHash: string, link: PreparedLink): void {
  const { keyValue, now } = deps.platform;
  const ttl = MAIL_LINK_TTL_MS[kind];
  const record: v.InferOutput<typeof RecordSchema> = {
    user_id: account.userId,
    email_hash: emailHash,
    password_revision: String(account.passwordRevision),
    expires_at: now() + ttl,
  };
  // Only the newest link works: the one it supersedes goes now, not at its expiry, so that an
  // erasure (which finds the newest) leaves no record naming the account behind.
  const superseded = keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
  if (superseded !== undefined && superseded !== link.id) {
    keyValue.delete(authNamespaces.mailLinks, linkKey(kind, superseded));
    keyValue.delete(authNamespaces.mailLinkSecrets, linkKey(kind, superseded));
  }
  keyValue.set(authNamespaces.mailLinks, linkKey(kind, link.id), JSON.stringify(record), BigInt(ttl));
  keyValue.set(authNamespaces.mailLinkNewest, newestKey(kind, emailHash), link.id, BigInt(ttl));
}

/** Stores the link for `account` and makes it the newest of its kind; mail `url` with `secrets`. */
export function issueMailLink(deps: AuthDeps, kind: MailLinkKind, account: Account, emailHash: string, link: PreparedLink, baseUrl: string): IssuedLink {
  storeLinkRecord(deps, kind, account, emailHash, link);
  const ttl = MAIL_LINK_TTL_MS[kind];
  return {
    url: `${baseUrl}${MAIL_LINK_PATHS[kind]}?token=${link.id}.${SECRET_PLACEHOLDER}`,
    secrets: [{ placeholder: SECRET_PLACEHOLDER, namespace: authNamespaces.mailLinkSecrets, key: linkKey(kind, link.id), ttlMs: BigInt(ttl) }],
  };
}

/**
 * A link handed to the page that has just proved control of the mailbox (a completed reset) rather
 * than mailed: the same record, the secret made here and only its hash stored. The token itself.
 */
export async function issuePageLink(deps: AuthDeps, kind: MailLinkKind, account: Account, emailHash: string): Promise<string> {
  const link = prepareMailLink();
  storeLinkRecord(deps, kind, account, emailHash, link);
  const secret = randomToken(32);
  deps.platform.keyValue.set(authNamespaces.mailLinkSecrets, linkKey(kind, link.id), await sha256Hex(secret), BigInt(MAIL_LINK_TTL_MS[kind]));
  return `${link.id}.${secret}`;
}

function parseRecord(text: string | undefined): v.InferOutput<typeof RecordSchema> | undefined {
  if (text === undefined) return undefined;
  try {
    const result = v.safeParse(RecordSchema, JSON.parse(text));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

function live(deps: AuthDeps, kind: MailLinkKind, id: string, text: string | undefined): MailLinkTarget | undefined {
  const record = parseRecord(text);
  if (!record || record.expires_at <= deps.platform.now()) return undefined;
  if (deps.platform.keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, record.email_hash)) !== id) return undefined;
  return { userId: record.user_id, emailHash: record.email_hash, passwordRevision: BigInt(record.password_revision) };
}

/** The link's id when `token` is well formed and its secret is the one its newest delivered copy carried. */
async function authenticLinkId(deps: AuthDeps, kind: MailLinkKind, token: string): Promise<string | undefined> {
  if (!v.is(MailLinkTokenSchema, token)) return undefined;
  const [id, secret] = token.split('.') as [string, string];
  // Hashed before the lookup: an unknown id and a wrong secret cost the same.
  const presented = await sha256Hex(secret);
  const stored = deps.platform.keyValue.get(authNamespaces.mailLinkSecrets, linkKey(kind, id));
  return stored !== undefined && timingSafeEqual(presented, stored) ? id : undefined;
}

/** The link's target if it would still work, without using it (to show the page it opens). */
export async function inspectMailLink(deps: AuthDeps, kind: MailLinkKind, token: string): Promise<MailLinkTarget | undefined> {
  const id = await authenticLinkId(deps, kind, token);
  return id === undefined ? undefined : live(deps, kind, id, deps.platform.keyValue.get(authNamespaces.mailLinks, linkKey(kind, id)));
}

/** Uses the link up (whatever happens next it works no more); its target if it was live. */
export async function redeemMailLink(deps: AuthDeps, kind: MailLinkKind, token: string): Promise<MailLinkTarget | undefined> {
  const id = await authenticLinkId(deps, kind, token);
  if (id === undefined) return undefined;
  // Of racing redemptions one takes the record; the secret's hash goes with it.
  const record = deps.platform.keyValue.take(authNamespaces.mailLinks, linkKey(kind, id));
  if (record !== undefined) deps.platform.keyValue.delete(authNamespaces.mailLinkSecrets, linkKey(kind, id));
  return live(deps, kind, id, record);
}

/** Ends every outstanding link of `kind` for the address (the password changed, the address is verified). */
export function retireMailLinks(deps: AuthDeps, kind: MailLinkKind, emailHash: string): void {
  deps.platform.keyValue.delete(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
}

/** The id of the newest link of `kind` for `key`, if one was issued and has not expired. */
export function newestMailLinkId(deps: AuthDeps, kind: MailLinkKind, key: string): string | undefined {
  return deps.platform.keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, key));
}

/**
 * Erases the newest link of one kind for `key` with its record and secret hash (an address change's
 * links); with `userId`, only when that link is the account's (an old address may be another's now).
 */
export function eraseMailLink(deps: AuthDeps, kind: MailLinkKind, key: string, userId?: string): void {
  const { keyValue } = deps.platform;
  const id = keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, key));
  if (id !== undefined && userId !== undefined && parseRecord(keyValue.get(authNamespaces.mailLinks, linkKey(kind, id)))?.user_id !== userId) return;
  if (id !== undefined) {
    keyValue.delete(authNamespaces.mailLinks, linkKey(kind, id));
    keyValue.delete(authNamespaces.mailLinkSecrets, linkKey(kind, id));
  }
  keyValue.delete(authNamespaces.mailLinkNewest, newestKey(kind, key));
}

/** Erases the address's newest link of each kind that is `userId`'s (an old address may be another's now). */
export function eraseOwnMailLinks(deps: AuthDeps, emailHash: string, userId: string): void {
  for (const kind of Object.keys(MAIL_LINK_TTL_MS) as MailLinkKind[]) eraseMailLink(deps, kind, emailHash, userId);
}

/**
 * Erases the address's newest link of each kind with its record and secret hash (the account is
 * being deleted: the record names the account). Links replaced earlier no longer work and expire
 * with their TTL.
 */
export function eraseMailLinks(deps: AuthDeps, emailHash: string): void {
  const { keyValue } = deps.platform;
  for (const kind of Object.keys(MAIL_LINK_TTL_MS) as MailLinkKind[]) {
    const id = keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
    if (id !== undefined) {
      keyValue.delete(authNamespaces.mailLinks, linkKey(kind, id));
      keyValue.delete(authNamespaces.mailLinkSecrets, linkKey(kind, id));
    }
    keyValue.delete(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
  }
}
