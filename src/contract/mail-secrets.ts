/**
 * Secrets made at delivery (WIT `mail.mail-secret`), shared by every writer and deliverer of the
 * outbox (src/contract/mail-outbox.ts): a message asks for a secret by a placeholder in its text
 * and the key-value place its hash goes; whoever delivers it draws the secret then, stores only
 * its hash and puts it into the text it sends. The outbox therefore never holds a secret: a link
 * read out of a store's files (a row, a write-ahead log, a backup) names its record and nothing
 * that redeems it.
 */
import { randomToken, sha256Hex } from './tokens.ts';

/** A secret slot as the outbox keeps it (JSON: the lifetime is a number of ms). */
export interface StoredMailSecret {
  placeholder: string;
  namespace: string;
  key: string;
  ttl_ms: number;
}

/** A secret slot as the WIT hands it over (`ttl-ms` is a u64). */
export interface RequestedMailSecret {
  placeholder: string;
  namespace: string;
  key: string;
  ttlMs: bigint;
}

/** The WIT's limits (wit/mail.wit). */
export const MAIL_SECRET_LIMITS = { perMessage: 4, placeholderMin: 8, placeholderMax: 64, ttlMaxMs: 366 * 24 * 3_600_000 } as const;

/** How many random bytes a secret is made of (256 bits: NIST SP 800-63B §5.1.1.2 asks for at least 64 for a look-up secret). */
export const MAIL_SECRET_BYTES = 32;

/** The slots in their stored form, or why they break the WIT's rules for this text (the message is then refused). */
export function checkMailSecrets(text: string, secrets: readonly RequestedMailSecret[]): StoredMailSecret[] | string {
  if (secrets.length > MAIL_SECRET_LIMITS.perMessage) return `at most ${MAIL_SECRET_LIMITS.perMessage} secrets per message`;
  const placeholders = new Set<string>();
  const stored: StoredMailSecret[] = [];
  for (const secret of secrets) {
    const { placeholder } = secret;
    if (placeholder.length < MAIL_SECRET_LIMITS.placeholderMin || placeholder.length > MAIL_SECRET_LIMITS.placeholderMax)
      return `a secret's placeholder must be ${MAIL_SECRET_LIMITS.placeholderMin} to ${MAIL_SECRET_LIMITS.placeholderMax} characters`;
    if (!text.includes(placeholder)) return "a secret's placeholder is not in the text";
    // One placeholder inside another would leave part of a secret standing for the other one.
    for (const other of placeholders) if (other.includes(placeholder) || placeholder.includes(other)) return 'the secrets need distinct placeholders';
    placeholders.add(placeholder);
    if (secret.namespace === '' || secret.key === '') return "a secret's namespace and key must not be empty";
    if (secret.ttlMs <= 0n || secret.ttlMs > BigInt(MAIL_SECRET_LIMITS.ttlMaxMs)) return `a secret's ttl-ms must be between 1 and ${MAIL_SECRET_LIMITS.ttlMaxMs}`;
    stored.push({ placeholder, namespace: secret.namespace, key: secret.key, ttl_ms: Number(secret.ttlMs) });
  }
  return stored;
}

/** Where a deliverer writes a secret's hash: the store's key-value `set`. */
export interface MailSecretHashes {
  set(namespace: string, key: string, value: string, ttlMs: bigint | undefined): unknown;
}

/**
 * Makes each slot's secret, writes its hash (replacing an earlier attempt's) and returns the text
 * with every placeholder replaced: what is sent, never stored. A failed hash write throws (the
 * delivery is tried again later).
 */
export async function fillMailSecrets(text: string, secrets: readonly StoredMailSecret[] | undefined, hashes: MailSecretHashes): Promise<string> {
  const [filled = ''] = await fillMailSecretsIn([text], secrets, hashes);
  return filled;
}

/** As fillMailSecrets, for the parts of one message (text and HTML): each secret made once, the same in every part. */
export async function fillMailSecretsIn(parts: readonly string[], secrets: readonly StoredMailSecret[] | undefined, hashes: MailSecretHashes): Promise<string[]> {
  let filled = [...parts];
  for (const slot of secrets ?? []) {
    const secret = randomToken(MAIL_SECRET_BYTES);
    await hashes.set(slot.namespace, slot.key, await sha256Hex(secret), BigInt(slot.ttl_ms));
    filled = filled.map((part) => part.replaceAll(slot.placeholder, secret));
  }
  return filled;
}
