/** Random identifiers and one-way digests: the contract's (src/contract/tokens.ts), which the host's mail deliverer shares. */
export { base64url, randomToken, sha256Hex } from '../../contract/tokens.ts';
