/**
 * Email normalization: one account per mailbox, and never one account for two mailboxes. Two
 * addresses are the same only where mail routing makes them the same:
 *
 * - the domain is compared in its IDNA ASCII form (./domain-name.ts: UTS #46), which is what DNS
 *   resolves, so case and Unicode spelling of the domain do not matter;
 * - the local part belongs to the mailbox provider (RFC 5321 §2.4: it may be case-sensitive).
 *   ASCII letters are lower-cased (no mainstream provider tells them apart, and two accounts
 *   differing by ASCII case would be a trap); nothing else is folded. An address whose local
 *   part Unicode NFKC would change (`\u212Aim` with a Kelvin sign, `\u2174ictim` with a roman
 *   numeral, full-width letters) is refused: a provider may route it to another mailbox than the
 *   one it looks like, and folding it would sign its owner into that other account.
 *
 * The NFKC check uses the bundled tables, so the guest (no ICU) and Node give the same answers.
 * No provider-specific rewriting (dots, "+tags"): those are different addresses.
 */
import { AppError } from '../../errors.ts';
import { nfkcStrict } from '../../text/nfkc.ts';
import { domainToAscii, hasUnmapped } from './domain-name.ts';

/** RFC 5321 §4.5.3.1: 64 octets local part, 254 for the whole path. */
const MAX_LENGTH = 254;
const MAX_LOCAL_OCTETS = 64;
const LOCAL = /^[^\s@"<>()[\]\\,;:]+$/u;

const invalid = () => new AppError('validation', 'email must be a valid address');

export function normalizeEmail(input: string): string {
  const trimmed = input.trim();
  const at = trimmed.indexOf('@');
  if (at < 1 || trimmed.length > MAX_LENGTH * 4) throw invalid();
  const rawLocal = trimmed.slice(0, at);
  if (nfkcStrict(rawLocal) !== rawLocal || hasUnmapped(rawLocal)) throw invalid();
  const local = rawLocal.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const domain = domainToAscii(trimmed.slice(at + 1));
  if (!LOCAL.test(local) || local.includes('..') || local.startsWith('.') || local.endsWith('.')) throw invalid();
  if (new TextEncoder().encode(local).length > MAX_LOCAL_OCTETS) throw invalid();
  // A mail domain has at least two labels and a top-level label that is not all digits.
  if (domain === undefined || !domain.includes('.') || /\.[0-9]+$/.test(domain)) throw invalid();
  const email = `${local}@${domain}`;
  if (new TextEncoder().encode(email).length > MAX_LENGTH) throw invalid();
  return email;
}
