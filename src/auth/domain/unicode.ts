/**
 * Unicode NFKC where the runtime has it. The component's engine (StarlingMonkey, built without
 * ICU) has no `String.prototype.normalize`; there the text stays as typed. The host's KDF
 * normalizes passwords itself (node:crypto side), so only email matching loses compatibility
 * folding inside the component; ASCII emails are unaffected.
 */
const hasNormalize = typeof String.prototype.normalize === 'function';

export function nfkc(text: string): string {
  return hasNormalize ? text.normalize('NFKC') : text;
}
