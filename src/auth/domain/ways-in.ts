/**
 * The ways into an account and the one rule for removing one: a sign-in method may be removed only
 * while another way in remains. A way in is a method that signs in on its own: the password, each
 * linked provider identity, and each passkey (a passkey signs in alone, "Sign in with a passkey",
 * so a passkey counts as a full way in). The mailbox is not one: a mailed reset link is a way back,
 * not a sign-in method, and the address may not be the account's own. Pure: the caller reads the
 * account's methods from the store.
 */

/** One sign-in method of an account, as the routes and the page name it. */
export type SignInMethod = { kind: 'password' } | { kind: 'provider'; provider: string } | { kind: 'passkey'; id: string };

/** What an account can sign in with now. */
export interface WaysIn {
  password: boolean;
  /** the linked providers (one entry per linked identity) */
  providers: readonly string[];
  /** the passkeys' ids */
  passkeys: readonly string[];
}

/** Why a method cannot be removed. */
export type RemovalRefusal =
  /** the account has no such method */
  | 'not_found'
  /** it is the last way in */
  | 'last_way_in';

/** How many ways in there are. */
export function countWaysIn(ways: WaysIn): number {
  return (ways.password ? 1 : 0) + ways.providers.length + ways.passkeys.length;
}

/** The account's ways in once `method` is removed (unchanged when the account has no such method). */
export function waysInAfterRemoving(ways: WaysIn, method: SignInMethod): WaysIn {
  switch (method.kind) {
    case 'password':
      return { ...ways, password: false };
    case 'provider': {
      const at = ways.providers.indexOf(method.provider);
      return at < 0 ? ways : { ...ways, providers: ways.providers.filter((_, i) => i !== at) };
    }
    case 'passkey':
      return { ...ways, passkeys: ways.passkeys.filter((id) => id !== method.id) };
  }
}

function holds(ways: WaysIn, method: SignInMethod): boolean {
  if (method.kind === 'password') return ways.password;
  if (method.kind === 'provider') return ways.providers.includes(method.provider);
  return ways.passkeys.includes(method.id);
}

/** Why `method` may not be removed from an account with `ways`, or undefined when it may. */
export function removalRefusal(ways: WaysIn, method: SignInMethod): RemovalRefusal | undefined {
  if (!holds(ways, method)) return 'not_found';
  return countWaysIn(waysInAfterRemoving(ways, method)) === 0 ? 'last_way_in' : undefined;
}

/** The method's wire name: `password`, `provider:<id>`, `passkey:<id>`. */
export function methodName(method: SignInMethod): string {
  return method.kind === 'password' ? 'password' : method.kind === 'provider' ? `provider:${method.provider}` : `passkey:${method.id}`;
}

/** The method a wire name names, or undefined. */
export function parseMethodName(name: string): SignInMethod | undefined {
  if (name === 'password') return { kind: 'password' };
  const provider = /^provider:([a-z0-9_]{1,32})$/.exec(name);
  if (provider) return { kind: 'provider', provider: provider[1]! };
  const passkey = /^passkey:([0-9a-f]{64})$/.exec(name);
  if (passkey) return { kind: 'passkey', id: passkey[1]! };
  return undefined;
}
