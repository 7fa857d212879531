/**
 * The ASCII form of an email's domain, as IDNA (UTS #46, nontransitional processing) gives it to
 * DNS: what mail is routed by. Two spellings of one domain (`Bücher.Example`, `bücher.example`,
 * `xn--bcher-kva.example`) give one form; that merges nothing a mailbox provider keeps apart.
 *
 * The UTS #46 mapping is case mapping plus NFKC for the labels accepted here; the NFKC comes from
 * the bundled tables (src/text/nfkc.ts), never from the engine, and lower-casing is per code point
 * (no context rule such as the final sigma, which UTS #46 does not have), so the guest and Node
 * agree. A label whose mapping is not stable (mapping it again would change it), or that holds a
 * code point those tables cannot normalize, is refused rather than guessed at.
 */
import { nfkcStrict } from '../../text/nfkc.ts';
import { punycodeEncode } from './punycode.ts';

/** Letters, digits, hyphens inside; no hyphen first or last (RFC 5890 §2.3.1, LDH). */
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** UTS #46 §4 step 1 maps these full stops to `.`. */
const FULL_STOPS = /[\u3002\uff0e\uff61]/g;
/**
 * Refused anywhere in an address: code points UTS #46 deletes (default ignorables: soft hyphen,
 * zero-width characters, variation selectors, bidi controls) and Cherokee, whose UTS #46 case
 * mapping goes to upper case. Mapping them would need tables this code does not carry; refusing
 * keeps every accepted domain's form equal to what UTS #46 gives.
 */
const UNMAPPED_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x115f, 0x1160],
  [0x13a0, 0x13ff],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xab70, 0xabbf],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xe0000, 0xe0fff],
];

export function hasUnmapped(text: string): boolean {
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (UNMAPPED_RANGES.some(([first, last]) => cp >= first && cp <= last)) return true;
  }
  return false;
}
const NON_ASCII = /[\u0080-\u{10ffff}]/u;
const MAX_LABEL = 63;
const MAX_DOMAIN = 253;

const lowerEach = (text: string): string => Array.from(text, (char) => char.toLowerCase()).join('');

function mapLabel(label: string): string | undefined {
  if (hasUnmapped(label)) return undefined;
  const lowered = lowerEach(label);
  const mapped = nfkcStrict(lowered);
  if (mapped === undefined || nfkcStrict(lowerEach(mapped)) !== mapped) return undefined;
  return mapped;
}

/** One label's ASCII form, or undefined when it is not a valid IDNA label. */
function asciiLabel(label: string): string | undefined {
  const mapped = mapLabel(label);
  if (mapped === undefined || mapped === '') return undefined;
  const ascii = NON_ASCII.test(mapped) ? `xn--${punycodeEncode(mapped)}` : mapped;
  // Non-ASCII labels must not carry ASCII outside LDH either (UseSTD3ASCIIRules).
  const asciiPart = mapped.replace(new RegExp(NON_ASCII, 'gu'), 'a');
  if (!LDH_LABEL.test(asciiPart) || !LDH_LABEL.test(ascii) || ascii.length > MAX_LABEL) return undefined;
  // CheckHyphens: `--` in positions 3-4 is reserved for ACE prefixes such as `xn--`.
  if (ascii.slice(2, 4) === '--' && !ascii.startsWith('xn--')) return undefined;
  return ascii;
}

/** The domain's ASCII (A-label) form, lower case, or undefined when it is not a valid domain name. */
export function domainToAscii(domain: string): string | undefined {
  const labels = domain.replace(FULL_STOPS, '.').split('.');
  const ascii: string[] = [];
  for (const label of labels) {
    const converted = asciiLabel(label);
    if (converted === undefined) return undefined;
    ascii.push(converted);
  }
  const result = ascii.join('.');
  return result.length > MAX_DOMAIN ? undefined : result;
}
