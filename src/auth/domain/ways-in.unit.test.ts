import { describe, expect, it } from 'vitest';
import { countWaysIn, methodName, parseMethodName, removalRefusal, waysInAfterRemoving, type WaysIn } from './ways-in.ts';

const KEY = 'a'.repeat(64);
const OTHER_KEY = 'b'.repeat(64);

describe('removalRefusal()', () => {
  it('refuses to remove the last way in, whatever it is', () => {
    expect(removalRefusal({ password: true, providers: [], passkeys: [] }, { kind: 'password' })).toBe('last_way_in');
    expect(removalRefusal({ password: false, providers: ['provider_a'], passkeys: [] }, { kind: 'provider', provider: 'provider_a' })).toBe('last_way_in');
    expect(removalRefusal({ password: false, providers: [], passkeys: [KEY] }, { kind: 'passkey', id: KEY })).toBe('last_way_in');
  });

  it('lets a method go while another remains: a password, a provider, or a passkey alone', () => {
    const ways: WaysIn = { password: true, providers: ['provider_a'], passkeys: [KEY] };
    expect(removalRefusal(ways, { kind: 'password' })).toBeUndefined();
    expect(removalRefusal({ password: true, providers: ['provider_a'], passkeys: [] }, { kind: 'provider', provider: 'provider_a' })).toBeUndefined();
    expect(removalRefusal({ password: true, providers: [], passkeys: [KEY] }, { kind: 'password' })).toBeUndefined();
    expect(removalRefusal({ password: false, providers: [], passkeys: [KEY, OTHER_KEY] }, { kind: 'passkey', id: KEY })).toBeUndefined();
  });

  it('counts two identities of one provider as two ways in', () => {
    const ways: WaysIn = { password: false, providers: ['provider_a', 'provider_a'], passkeys: [] };
    expect(removalRefusal(ways, { kind: 'provider', provider: 'provider_a' })).toBeUndefined();
    expect(countWaysIn(waysInAfterRemoving(ways, { kind: 'provider', provider: 'provider_a' }))).toBe(1);
  });

  it('answers not_found for a method the account does not have', () => {
    const ways: WaysIn = { password: false, providers: ['provider_a'], passkeys: [KEY] };
    expect(removalRefusal(ways, { kind: 'password' })).toBe('not_found');
    expect(removalRefusal(ways, { kind: 'provider', provider: 'provider_b' })).toBe('not_found');
    expect(removalRefusal(ways, { kind: 'passkey', id: OTHER_KEY })).toBe('not_found');
  });
});

describe('parseMethodName()', () => {
  it('reads back what methodName() writes and nothing else', () => {
    for (const method of [{ kind: 'password' }, { kind: 'provider', provider: 'provider_c' }, { kind: 'passkey', id: KEY }] as const) {
      expect(parseMethodName(methodName(method))).toEqual(method);
    }
    for (const name of ['', 'passwords', 'provider:', 'provider:A', 'passkey:xyz', `passkey:${KEY}0`, 'email']) expect(parseMethodName(name)).toBeUndefined();
  });
});
