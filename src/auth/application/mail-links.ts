/**
 * Single-use links mailed to an account's address: email verification (24 h) and password reset
 * (30 min). The link carries a random token (32 bytes); the store keeps only its SHA-256, in
 * key-value with the link's lifetime as TTL, with the account it is for. A link works once
 * (`take`), only while it is the newest of its kind for the account (issuing one replaces the
 * pointer to the previous), only before its expiry, and a reset link only while the password is
 * the one it was issued under (the email stream's password revision). Links are built from
 * AUTH_PUBLIC_BASE_URL, never from the request.
 */
import * as v from 'valibot';
import { RateLimitedError } from '../../errors.ts';
import type { Account } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { randomToken, sha256Hex } from './secrets.ts';
import { authNamespaces } from './streams.ts';

export type MailLinkKind = 'verify' | 'reset';

export const MAIL_LINK_TTL_MS: Record<MailLinkKind, number> = { verify: 24 * 3_600_000, reset: 30 * 60_000 };
export const MAIL_LINK_PATHS: Record<MailLinkKind, string> = { verify: '/verify-email', reset: '/reset-password' };

/** A token as it arrives in a link (43 base64url characters), checked before any lookup. */
export const MailLinkTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/));

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

/** A token made before the account is known (so known and unknown addresses cost the same), issued later. */
export interface PreparedLink {
  token: string;
  tokenHash: string;
}

export async function prepareMailLink(): Promise<PreparedLink> {
  const token = randomToken(32);
  return { token, tokenHash: await sha256Hex(token) };
}

const newestKey = (kind: MailLinkKind, emailHash: string) => `${kind}:${emailHash}`;
const recordKey = (kind: MailLinkKind, tokenHash: string) => `${kind}:${tokenHash}`;

/** Stores the link for `account` and makes it the newest of its kind; returns its URL. */
export function issueMailLink(deps: AuthDeps, kind: MailLinkKind, account: Account, emailHash: string, link: PreparedLink, baseUrl: string): string {
  const { keyValue, now } = deps.platform;
  const ttl = MAIL_LINK_TTL_MS[kind];
  const record: v.InferOutput<typeof RecordSchema> = {
    user_id: account.userId,
    email_hash: emailHash,
    password_revision: String(account.passwordRevision),
    expires_at: now() + ttl,
  };
  keyValue.set(authNamespaces.mailLinks, recordKey(kind, link.tokenHash), JSON.stringify(record), BigInt(ttl));
  keyValue.set(authNamespaces.mailLinkNewest, newestKey(kind, emailHash), link.tokenHash, BigInt(ttl));
  return `${baseUrl}${MAIL_LINK_PATHS[kind]}?token=${link.token}`;
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

function live(deps: AuthDeps, kind: MailLinkKind, tokenHash: string, text: string | undefined): MailLinkTarget | undefined {
  const record = parseRecord(text);
  if (!record || record.expires_at <= deps.platform.now()) return undefined;
  if (deps.platform.keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, record.email_hash)) !== tokenHash) return undefined;
  return { userId: record.user_id, emailHash: record.email_hash, passwordRevision: BigInt(record.password_revision) };
}

/** The link's target if it would still work, without using it (to show the page it opens). */
export async function inspectMailLink(deps: AuthDeps, kind: MailLinkKind, token: string): Promise<MailLinkTarget | undefined> {
  if (!v.is(MailLinkTokenSchema, token)) return undefined;
  const tokenHash = await sha256Hex(token);
  return live(deps, kind, tokenHash, deps.platform.keyValue.get(authNamespaces.mailLinks, recordKey(kind, tokenHash)));
}

/** Uses the link up (whatever happens next it works no more); its target if it was live. */
export async function redeemMailLink(deps: AuthDeps, kind: MailLinkKind, token: string): Promise<MailLinkTarget | undefined> {
  if (!v.is(MailLinkTokenSchema, token)) return undefined;
  const tokenHash = await sha256Hex(token);
  return live(deps, kind, tokenHash, deps.platform.keyValue.take(authNamespaces.mailLinks, recordKey(kind, tokenHash)));
}

/** Ends every outstanding link of `kind` for the address (the password changed, the address is verified). */
export function retireMailLinks(deps: AuthDeps, kind: MailLinkKind, emailHash: string): void {
  deps.platform.keyValue.delete(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
}

/**
 * Erases the address's newest link of each kind with its record (the account is being deleted:
 * the record names the account). Links replaced earlier no longer work and expire with their TTL.
 */
export function eraseMailLinks(deps: AuthDeps, emailHash: string): void {
  const { keyValue } = deps.platform;
  for (const kind of Object.keys(MAIL_LINK_TTL_MS) as MailLinkKind[]) {
    const tokenHash = keyValue.get(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
    if (tokenHash !== undefined) keyValue.delete(authNamespaces.mailLinks, recordKey(kind, tokenHash));
    keyValue.delete(authNamespaces.mailLinkNewest, newestKey(kind, emailHash));
  }
}

/**
 * Counts one mail of `kind` to the address: at most `max` per hour (fixed window). With `quiet`,
 * false instead of RateLimitedError, for callers whose answer must not change (password reset).
 */
export function spendMailBudget(deps: AuthDeps, kind: MailLinkKind, emailHash: string, max: number, quiet: boolean): boolean {
  const hour = 3_600_000;
  const windowStart = Math.floor(deps.platform.now() / hour) * hour;
  const count = deps.platform.keyValue.increment(authNamespaces.mailLinkBudget, `${kind}:${emailHash}:${windowStart}`, 1n, BigInt(hour * 2));
  if (count <= BigInt(max)) return true;
  if (quiet) return false;
  throw new RateLimitedError((windowStart + hour - deps.platform.now()) / 1000);
}
