/** Random identifiers and one-way digests: the contract's (src/contract/tokens.ts), which the host's mail deliverer shares. */
import { sha256Hex as sha256HexNow } from '../oauth/random-tokens.ts';

export { base64url, randomToken, sha256Hex } from '../../contract/tokens.ts';

/**
 * The key of a counter about an address that outlives the address's account (the login budget,
 * the mail budget: they protect the mailbox, and live out their window after an erasure): a
 * purpose-labelled SHA-256 of the address's hash, never that hash itself, which names the
 * account's streams and records. So an erased account leaves no key that its identifiers find
 * (docs/storage.md, "Account deletion").
 */
export function addressCounterKey(purpose: string, emailHash: string): string {
  return sha256HexNow(`${purpose}\n${emailHash}`);
}
