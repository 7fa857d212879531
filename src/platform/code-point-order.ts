/**
 * Text in Unicode code point order, which is UTF-8 byte order: how SQLite (BINARY), PostgreSQL
 * ("C" collation) and Redis (sorted-set lex ranges) order ids, and so the order WIT
 * `list-documents` promises. JavaScript's `<` compares UTF-16 code units instead, which puts a
 * character above U+FFFF (a surrogate pair, U+D800–U+DFFF) before U+E000–U+FFFF; the stores written
 * in JavaScript (the file store, the in-memory one) compare with this.
 */

/** A code unit mapped so that surrogates sort after U+E000–U+FFFF and all else keeps its order. */
function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}

/** Negative, zero or positive as `a` sorts before, with or after `b` in code point order. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}
