import { describe, expect, it } from 'vitest';
import type { PasskeyRegistered } from './events.ts';
import { cleanPasskeyName, evolvePasskeys, MAX_PASSKEY_NAME_LENGTH } from './passkey-list.ts';

const registered = (id: string): PasskeyRegistered => ({
  user_id: 'u',
  passkey_id: id,
  credential_id: 'Y3JlZA',
  public_key: 'a2V5',
  counter: 0,
  transports: ['internal'],
  name: 'Laptop',
  backed_up: false,
  device_type: 'singleDevice',
  created_at: 1,
});

describe('evolvePasskeys()', () => {
  it('lists registered passkeys, applies renames and drops removed ones', () => {
    let list = evolvePasskeys(new Map(), { type: 'auth_passkey_registered', data: registered('a') });
    list = evolvePasskeys(list, { type: 'auth_passkey_registered', data: registered('b') });
    list = evolvePasskeys(list, { type: 'auth_passkey_renamed', data: { passkey_id: 'a', name: 'Phone' } });
    list = evolvePasskeys(list, { type: 'auth_passkey_removed', data: { passkey_id: 'b', removed_at: 2 } });
    expect([...list.values()].map((p) => [p.passkey_id, p.name])).toEqual([['a', 'Phone']]);
  });

  it('ignores a rename of a passkey that is not listed', () => {
    const list = evolvePasskeys(new Map(), { type: 'auth_passkey_renamed', data: { passkey_id: 'x', name: 'Phone' } });
    expect(list.size).toBe(0);
  });
});

describe('cleanPasskeyName()', () => {
  it('trims, turns control characters into spaces and bounds the length', () => {
    expect(cleanPasskeyName('  Work\nlaptop\u0000 ')).toBe('Work laptop');
    expect(cleanPasskeyName('x'.repeat(200))).toHaveLength(MAX_PASSKEY_NAME_LENGTH);
  });

  it('gives undefined for a name with nothing visible', () => {
    expect(cleanPasskeyName(' \t\n ')).toBeUndefined();
  });
});
