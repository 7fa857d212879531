/**
 * Unicode NFKC for emails, where the runtime has it. The component's engine (StarlingMonkey, built
 * without ICU) has no `String.prototype.normalize`; there the text stays as typed, so email
 * matching loses compatibility folding inside the component (ASCII emails are unaffected).
 * Passwords do not use this: they are normalized with bundled tables (src/text/nfkc.ts).
 */
const hasNormalize = typeof String.prototype.normalize === 'function';

export function nfkc(text: string): string {
  return hasNormalize ? text.normalize('NFKC') : text;
}
