/**
 * What the signed-in account can sign in with, read from the store (not from the read models
 * alone): the password from the account's email stream, each linked identity from the users read
 * model checked against its own link stream, each passkey from the passkey list. The rule over them
 * is ../domain/ways-in.ts.
 */
import { AppError } from '../../errors.ts';
import type { WaysIn } from '../domain/ways-in.ts';
import { readPasskeys } from '../passkeys/store.ts';
import { findAccountByEmailHash, type Account } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { readLink } from './external-identity.ts';
import { AUTH_COLLECTIONS, readAuthDocument, runAuthProjection, type UserDocument } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import type { ActiveSession } from './sessions.ts';
import { authStreams } from './streams.ts';

export interface LinkedIdentity {
  provider: string;
  subjectHash: string;
}

export interface AccountWaysIn {
  ways: WaysIn;
  /** the linked identities behind `ways.providers`, in the same order */
  identities: LinkedIdentity[];
  /** the account's own address record, when it owns one (its password, whether it is verified) */
  owned: { account: Account; emailHash: string } | undefined;
}

/** The account's ways in now. Store failures become AppErrors. */
export async function readWaysIn(deps: AuthDeps, session: Pick<ActiveSession, 'userId' | 'email'>): Promise<AccountWaysIn> {
  const { platform } = deps;
  try {
    let owned: AccountWaysIn['owned'];
    if (session.email) {
      const emailHash = await sha256Hex(session.email);
      const account = findAccountByEmailHash(platform, emailHash);
      if (account?.userId === session.userId) owned = { account, emailHash };
    }
    runAuthProjection(platform);
    const doc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: session.userId });
    const user = doc ? readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, doc.body) : undefined;
    const identities = (user?.identities ?? [])
      .filter((identity) => readLink(deps, authStreams.identity(identity.provider, identity.subject_hash))?.user_id === session.userId)
      .map((identity) => ({ provider: identity.provider, subjectHash: identity.subject_hash }));
    const ways: WaysIn = {
      password: owned?.account.passwordHash !== undefined,
      providers: identities.map((identity) => identity.provider),
      passkeys: [...readPasskeys(deps, session.userId).keys()],
    };
    return { ways, identities, owned };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
