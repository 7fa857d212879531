/**
 * Unicode NFKC that gives the same result in the guest as Node's ICU, with no help from the
 * engine (StarlingMonkey has no usable `String.prototype.normalize`). The tables are unorm's
 * (Unicode 8.0 data; its 140 KB of source are bundled and evaluated on the first non-ASCII text).
 * A text is normalized only when every code point is in src/text/gen/nfkc-supported.ts, the code points
 * unorm normalizes exactly as Unicode NFKC_TABLE_UNICODE does (scripts/nfkc-table.ts). By
 * Unicode's normalization stability policy a text of such code points keeps that NFKC form in
 * every later version, so a password hashed in this form verifies on any host. Anything else
 * (unassigned in that version, or a later character with decomposition, combining class or
 * composition data unorm lacks) gets `undefined`.
 */
import { NFKC_SUPPORTED_RUNS, NFKC_TABLE_UNICODE } from './gen/nfkc-supported.ts';
import { loadUnorm } from './gen/unorm-lazy.ts';

let unorm: ReturnType<typeof loadUnorm> | undefined;

/** unorm, evaluated on first use (src/text/gen/unorm-lazy.ts says why). */
function unormNfkc(text: string): string {
  if (!unorm) {
    unorm = loadUnorm();
    // unorm installs itself as `String.prototype.normalize` where the engine has none; undo that,
    // so code that feature-tests `normalize` (src/auth/domain/unicode.ts) behaves the same throughout.
    if (unorm.shimApplied) delete (String.prototype as { normalize?: unknown }).normalize;
  }
  return unorm.nfkc(text);
}

export const NFKC_UNICODE_VERSION = NFKC_TABLE_UNICODE;

/** [first0, last0, first1, last1, ...] of the supported runs, ascending. */
const RUNS = (() => {
  const parts = NFKC_SUPPORTED_RUNS.split(',').map((part) => Number.parseInt(part, 36));
  const runs = new Uint32Array(parts.length);
  let previousEnd = -1;
  for (let i = 0; i < parts.length; i += 2) {
    runs[i] = previousEnd + 1 + parts[i]!;
    runs[i + 1] = runs[i]! + parts[i + 1]!;
    previousEnd = runs[i + 1]!;
  }
  return runs;
})();

export function isNfkcSupported(codePoint: number): boolean {
  let low = 0;
  let high = RUNS.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (codePoint < RUNS[2 * mid]!) high = mid - 1;
    else if (codePoint > RUNS[2 * mid + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

/** ASCII is its own NFKC form; most passwords skip the tables entirely. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included.
const ASCII = /^[\x00-\x7f]*$/;

/** The text's NFKC form, or `undefined` when it holds a code point the tables cannot normalize exactly. */
export function nfkcStrict(text: string): string | undefined {
  if (ASCII.test(text)) return text;
  for (const char of text) if (!isNfkcSupported(char.codePointAt(0)!)) return undefined;
  return unormNfkc(text);
}
