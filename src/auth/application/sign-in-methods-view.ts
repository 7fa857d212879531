/**
 * The signed-in account's sign-in methods as the account page and `GET /api/auth/sign-in-methods`
 * show them: each one, and whether it can be removed now (else why: ../domain/ways-in.ts).
 */
import { removalRefusal, methodName, type RemovalRefusal, type SignInMethod } from '../domain/ways-in.ts';
import { readPasskeys } from '../passkeys/store.ts';
import type { AuthDeps } from './deps.ts';
import type { ActiveSession } from './sessions.ts';
import { readWaysIn } from './ways-in.ts';

export interface SignInMethodView {
  /** the method's wire name: `password`, `provider:<id>`, `passkey:<id>` (what the removal takes) */
  method: string;
  kind: SignInMethod['kind'];
  /** the provider's id or the passkey's id; absent for the password */
  id?: string;
  /** the passkey's name; the provider's id for a provider (the page writes its label) */
  name?: string;
  removable: boolean;
  /** why it cannot be removed now */
  refusal?: Exclude<RemovalRefusal, 'not_found'>;
}

export interface SignInMethodsView {
  methods: SignInMethodView[];
  /** whether the account has a password (re-authentication asks it) */
  hasPassword: boolean;
}

export async function signInMethodsView(deps: AuthDeps, session: Pick<ActiveSession, 'userId' | 'email'>): Promise<SignInMethodsView> {
  const { ways } = await readWaysIn(deps, session);
  const names = readPasskeys(deps, session.userId);
  const methods: SignInMethod[] = [
    ...(ways.password ? [{ kind: 'password' } as const] : []),
    ...ways.providers.map((provider) => ({ kind: 'provider', provider }) as const),
    ...ways.passkeys.map((id) => ({ kind: 'passkey', id }) as const),
  ];
  return {
    hasPassword: ways.password,
    methods: methods.map((method) => {
      const refusal = removalRefusal(ways, method);
      const id = method.kind === 'provider' ? method.provider : method.kind === 'passkey' ? method.id : undefined;
      const name = method.kind === 'passkey' ? names.get(method.id)?.name : id;
      return {
        method: methodName(method),
        kind: method.kind,
        ...(id === undefined ? {} : { id }),
        ...(name === undefined ? {} : { name }),
        removable: refusal === undefined,
        ...(refusal === 'last_way_in' ? { refusal } : {}),
      };
    }),
  };
}
