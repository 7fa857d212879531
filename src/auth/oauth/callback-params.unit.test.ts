import { describe, expect, it } from 'vitest';
import { parseCallbackParams } from './callback-params.ts';

const q = (s: string) => new URLSearchParams(s);

describe('parseCallbackParams()', () => {
  it('reads a code and state from a query string', () => {
    expect(parseCallbackParams(q('code=abc&state=xyz'))).toEqual({ kind: 'code', code: 'abc', state: 'xyz', user: undefined });
  });

  it('reads provider_c form-post fields, including the user JSON', () => {
    const form = q(`code=c1&state=s1&user=${encodeURIComponent('{"name":{"firstName":"A"}}')}`);
    expect(parseCallbackParams(form)).toEqual({ kind: 'code', code: 'c1', state: 's1', user: '{"name":{"firstName":"A"}}' });
  });

  it('reports a provider error, keeping only RFC error codes', () => {
    expect(parseCallbackParams(q('error=access_denied&state=s'))).toEqual({ kind: 'provider_error', error: 'access_denied', state: 's' });
    expect(parseCallbackParams(q('error=something_odd'))).toEqual({ kind: 'provider_error', error: 'other', state: undefined });
  });

  it.each([[''], ['code=abc'], ['state=xyz'], ['code=&state=x'], ['code=a&state=b&state=c'], ['code=a%20b&state=s'], [`code=${'a'.repeat(3000)}&state=s`], ['error=a%0Ab']])(
    'refuses %j as malformed',
    (query) => {
      expect(parseCallbackParams(q(query))).toEqual({ kind: 'malformed' });
    },
  );
});
