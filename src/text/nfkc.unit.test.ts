/**
 * The bundled NFKC (unorm behind the supported-code-point table) against Node's own ICU
 * `normalize('NFKC')`: every supported code point alone, every canonical composition, and
 * seeded random texts that mix marks, Hangul jamo and compatibility characters.
 */
import { describe, expect, it, vi } from 'vitest';
import { NFKC_TABLE_UNICODE } from './gen/nfkc-supported.ts';
import { isNfkcSupported, NFKC_UNICODE_VERSION, nfkcStrict } from './nfkc.ts';
import { seededRandom } from '../platform/testing/seeded-random.ts';

const ALL = Array.from({ length: 0x110000 }, (_, cp) => cp);
const SUPPORTED = ALL.filter(isNfkcSupported);
const icu = (text: string) => text.normalize('NFKC');

describe('the supported-code-point table', () => {
  it('holds all of Unicode 8.0 and most later characters, and no surrogate or unassigned code point', () => {
    expect(NFKC_UNICODE_VERSION).toBe(NFKC_TABLE_UNICODE);
    // Unicode 17.0 assigns 297,334 code points outside the surrogates; about 430 later ones are left out.
    expect(SUPPORTED.length).toBeGreaterThan(296_000);
    expect(SUPPORTED.some((cp) => cp >= 0xd800 && cp <= 0xdfff)).toBe(false);
    for (const cp of [0x378, 0x0e_ffff, 0xfdd0, 0x10_fffe, 0x3_0000 + 0xffff]) expect(isNfkcSupported(cp), cp.toString(16)).toBe(false);
    // Emoji and CJK added after Unicode 8.0 (🥰 11.0, 🫠 14.0, CJK Extension G 13.0) need no tables: supported.
    for (const cp of [0x1f970, 0x1fae0, 0x30000]) expect(isNfkcSupported(cp), cp.toString(16)).toBe(true);
    // Later characters with normalization data unorm lacks: NKo dantayalan (11.0, class 220), a
    // Tulu-Tigalari composite and a Tulu-Tigalari letter of a new composition pair (16.0).
    for (const cp of [0x7fd, 0x11383, 0x11382]) expect(isNfkcSupported(cp), cp.toString(16)).toBe(false);
  });
});

describe('nfkcStrict()', () => {
  it("normalizes every supported code point alone as Node's ICU does", () => {
    const differ = SUPPORTED.filter((cp) => {
      const c = String.fromCodePoint(cp);
      return nfkcStrict(c) !== icu(c);
    });
    expect(differ.map((cp) => cp.toString(16))).toEqual([]);
  });

  it('composes every canonical pair of supported characters as ICU does', () => {
    let checked = 0;
    for (const cp of SUPPORTED) {
      const c = String.fromCodePoint(cp);
      const decomposed = c.normalize('NFD');
      if (decomposed === c || ![...decomposed].every((part) => isNfkcSupported(part.codePointAt(0)!))) continue;
      checked++;
      expect(nfkcStrict(decomposed), cp.toString(16)).toBe(icu(decomposed));
    }
    expect(checked).toBeGreaterThan(13_000);
  });

  it('agrees with ICU on 20,000 random texts of supported characters, marks and jamo included', () => {
    const next = seededRandom(0x5eed);
    const marks = SUPPORTED.filter((cp) => /\p{M}/u.test(String.fromCodePoint(cp)));
    const decomposing = SUPPORTED.filter((cp) => String.fromCodePoint(cp).normalize('NFKD') !== String.fromCodePoint(cp));
    const jamo = ALL.filter((cp) => (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xac00 && cp <= 0xd7a3));
    const pools = [SUPPORTED, marks, marks, decomposing, jamo, ALL.slice(0x20, 0x7f)];
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let n = 1 + Math.floor(next() * 12); n > 0; n--) {
        const pool = pools[Math.floor(next() * pools.length)]!;
        text += String.fromCodePoint(pool[Math.floor(next() * pool.length)]!);
      }
      if (nfkcStrict(text) !== icu(text)) expect([...text].map((c) => c.codePointAt(0)!.toString(16)).join(' ')).toBe('normalized as ICU does');
    }
  });

  it('folds composed and decomposed é and full-width letters to one form; ASCII is its own', () => {
    expect(nfkcStrict('caf\u00e9')).toBe('caf\u00e9');
    expect(nfkcStrict('cafe\u0301')).toBe('caf\u00e9');
    expect(nfkcStrict('\uff30\uff41\uff53\uff53')).toBe('Pass');
    expect(nfkcStrict('\ufdfa')).toBe(icu('\ufdfa'));
    expect(nfkcStrict('plain ascii\t~')).toBe('plain ascii\t~');
  });

  it('answers undefined for a text with any code point outside the table', () => {
    expect(nfkcStrict('caf\u00e9 \u0378')).toBeUndefined();
    expect(nfkcStrict('\u07fd')).toBeUndefined();
    expect(nfkcStrict('x\ud800y')).toBeUndefined();
  });

  it("leaves the engine's String.prototype.normalize alone where it has one", () => {
    expect('\uff21'.normalize('NFKC')).toBe('A');
    expect(String.prototype.normalize.toString()).toContain('[native code]');
  });

  it('works where the engine has no String.prototype.normalize (StarlingMonkey), and leaves none behind', async () => {
    const native = Object.getOwnPropertyDescriptor(String.prototype, 'normalize')!;
    delete (String.prototype as { normalize?: unknown }).normalize;
    try {
      vi.resetModules();
      const fresh = await import('./nfkc.ts');
      expect(fresh.nfkcStrict('cafe\u0301 ｆｕｌｌ')).toBe('caf\u00e9 full');
      // unorm installed its shim on load; the module took it away again.
      expect('normalize' in String.prototype).toBe(false);
    } finally {
      Object.defineProperty(String.prototype, 'normalize', native);
    }
  });
});
