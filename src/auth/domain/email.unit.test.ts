import { describe, expect, it } from 'vitest';
import { domainToAscii } from './domain-name.ts';
import { normalizeEmail } from './email.ts';
import { punycodeEncode } from './punycode.ts';

const refused = expect.objectContaining({ code: 'validation', message: 'email must be a valid address' });

describe('normalizeEmail()', () => {
  it('trims and lower-cases ASCII letters', () => {
    expect(normalizeEmail('  Alice.Smith+news@Example.COM ')).toBe('alice.smith+news@example.com');
  });

  it('keeps dots and tags: they are different mailboxes', () => {
    expect(normalizeEmail('a.b+c@example.com')).not.toBe(normalizeEmail('ab@example.com'));
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a b@example.com',
    'a@@example.com',
    'a..b@example.com',
    `${'x'.repeat(65)}@example.com`,
    `a@${'x'.repeat(250)}.com`,
    'a@example.com.',
    'a@1.2.3.4',
  ])('rejects %j', (input) => {
    expect(() => normalizeEmail(input)).toThrow(refused);
  });

  // Unicode toLowerCase() and NFKC folded these into other people's mailboxes.
  it.each([
    ['\u212Aim@example.test', 'Kelvin sign K'],
    ['\u2174ictim@example.test', 'small roman numeral five'],
    ['\u2163@example.test', 'roman numeral four'],
    ['\uff41lice@example.test', 'full-width a'],
    ['\ufb01nance@example.test', 'fi ligature'],
    ['vic\u200btim@example.test', 'an invisible zero-width space'],
    ['vic\u00adtim@example.test', 'an invisible soft hyphen'],
  ])('refuses %j (%s) instead of folding it into an ASCII address', (input) => {
    expect(() => normalizeEmail(input)).toThrow(refused);
  });

  it('folds no Unicode case in the local part: distinct mailboxes stay distinct', () => {
    expect(normalizeEmail('Élodie@example.test')).toBe('Élodie@example.test');
    expect(normalizeEmail('élodie@example.test')).toBe('élodie@example.test');
    expect(normalizeEmail('straße@example.test')).toBe('straße@example.test');
  });

  it('compares the domain in its IDNA form, whatever its spelling', () => {
    const forms = ['kim@bücher.example', 'kim@Bücher.Example', 'kim@xn--bcher-kva.example', 'KIM@XN--BCHER-KVA.EXAMPLE', 'kim@bu\u0308cher.example'];
    expect(new Set(forms.map(normalizeEmail))).toEqual(new Set(['kim@xn--bcher-kva.example']));
  });

  it('counts the local part in octets (RFC 5321 §4.5.3.1)', () => {
    expect(normalizeEmail(`${'é'.repeat(32)}@example.test`)).toBe(`${'é'.repeat(32)}@example.test`);
    expect(() => normalizeEmail(`${'é'.repeat(33)}@example.test`)).toThrow(refused);
  });
});

describe('domainToAscii() against UTS #46 and RFC 3492 vectors', () => {
  // Expected values: UTS #46 nontransitional as Node's ICU (url.domainToASCII) gives them, and
  // IdnaTestV2.txt / RFC 3492 examples.
  it.each([
    ['fass.de', 'fass.de'],
    ['faß.de', 'xn--fa-hia.de'],
    ['FASS.DE', 'fass.de'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['例え。テスト', 'xn--r8jz45g.xn--zckzah'],
    ['ＥＸＡＭＰＬＥ．ＣＯＭ', 'example.com'],
    ['\u212Aelvin.example', 'kelvin.example'],
    ['ΌΣΟΣ.example', 'xn--0xahb7a.example'],
    ['όσος.example', 'xn--0xagb9a.example'],
    ['Ⅷ.example', 'viii.example'],
    ['İstanbul.example', 'xn--istanbul-o0e.example'],
    ['ǅ.example', 'xn--d-toa.example'],
    ['Ⴀ.example', 'xn--rkj.example'],
    ['ß.de', 'xn--zca.de'],
    ['①.example', '1.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('%j → %j', (input, ascii) => {
    expect(domainToAscii(input)).toBe(ascii);
  });

  // UTS #46 deletes these or case-maps them to upper case: refused rather than mapped wrongly.
  it.each([
    'a\u200bb.example',
    'a\u00adb.example',
    'ꭰ.example',
    'Ꭰ.example',
    '-a.example',
    'a-.example',
    'ab--c.example',
    'a_b.example',
    'a b.example',
    '.example',
    'example..com',
    `${'a'.repeat(64)}.example`,
  ])('refuses %j', (input) => {
    expect(domainToAscii(input)).toBeUndefined();
  });

  it.each([
    ['ليهمابتكلموشعربي؟', 'egbpdaj6bu4bxfgehfvwxn'],
    ['他们为什么不说中文', 'ihqwcrb4cv8a8dqg056pqjye'],
    ['3年B組金八先生', '3B-ww4c5e180e575a65lsy2b'],
    ['bücher', 'bcher-kva'],
  ])('punycode %j → %j (RFC 3492 §7.1)', (label, encoded) => {
    expect(punycodeEncode(label)).toBe(encoded);
  });
});
