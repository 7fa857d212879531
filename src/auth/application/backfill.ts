/**
 * What stores written before the retention queue and the identity list lack, folded in once from
 * the event log: every session gets its `auth_session_ends` entry (at its expiry, or when it was
 * revoked), so retention finds and removes it; every linked identity is listed on its user's
 * document, so account deletion finds and removes its stream. Run by maintenance, a bounded number
 * of pages per pass, from the start of the log up to the auth projection's checkpoint as it finds
 * it (later events the projection folds itself). Its progress is a document committed with each
 * page at the projection's own checkpoint (next = expected), so a projection run that moved it
 * first makes the page retry on the newer documents; done once, a pass costs one read. Entries
 * already there are written again unchanged; removed streams are not read, so nothing comes back.
 */
import type { DocumentChange } from '../../platform/ports.ts';
import type { ExternalIdentityLinked, SessionIssued, SessionRevoked } from '../domain/events.ts';
import type { AuthDeps } from './deps.ts';
import { payloadOf } from './event-codec.ts';
import { AUTH_COLLECTIONS, AUTH_PROJECTION, readAuthDocument, runAuthProjection, sessionEndId, writeAuthDocument, type UserDocument } from './projection.ts';

const PROGRESS = { collection: 'auth_backfill', id: 'progress' } as const;
const PAGE = 500;
/** Pages per pass at most: a longer log is finished by the next passes. */
const MAX_PAGES = 100;

interface Progress {
  /** the last sequence folded */
  after: string;
  done: boolean;
}

export interface BackfillPass {
  /** events folded in this pass */
  events: number;
  done: boolean;
}

const sessionHashOf = (streamId: string) => streamId.replace(/^auth-session-/, '');

/** One page's changes, by document (a later event on a document folds over an earlier one). */
function fold(deps: AuthDeps, events: ReturnType<AuthDeps['platform']['events']['readAll']>): DocumentChange[] {
  const { platform } = deps;
  const changes = new Map<string, DocumentChange>();
  const users = new Map<string, UserDocument | undefined>();
  const put = (collection: string, id: string, body: object) =>
    changes.set(`${collection}/${id}`, { tag: 'put', val: { collection, id, body: writeAuthDocument(collection, body) } });
  for (const event of events) {
    if (event.eventType === 'auth_session_issued') {
      const issued = payloadOf<SessionIssued>(event);
      put(AUTH_COLLECTIONS.sessionEnds, sessionEndId(issued.expires_at, sessionHashOf(event.streamId)), { user_id: issued.user_id });
    } else if (event.eventType === 'auth_session_revoked') {
      const revoked = payloadOf<SessionRevoked>(event);
      const hash = sessionHashOf(event.streamId);
      const [first] = platform.events.readStream(event.streamId, { direction: 'forward', limit: 1 });
      if (first?.eventType === 'auth_session_issued') {
        const id = sessionEndId(payloadOf<SessionIssued>(first).expires_at, hash);
        changes.set(`${AUTH_COLLECTIONS.sessionEnds}/${id}`, { tag: 'delete', val: { collection: AUTH_COLLECTIONS.sessionEnds, id } });
      }
      put(AUTH_COLLECTIONS.sessionEnds, sessionEndId(revoked.revoked_at, hash), { user_id: revoked.user_id });
    } else if (event.eventType === 'auth_external_identity_linked') {
      const linked = payloadOf<ExternalIdentityLinked>(event);
      if (!users.has(linked.user_id)) {
        const doc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: linked.user_id });
        users.set(linked.user_id, doc ? readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, doc.body) : undefined);
      }
      const user = users.get(linked.user_id);
      if (!user) continue;
      const identities = user.identities ?? [];
      if (identities.some((i) => i.provider === linked.provider && i.subject_hash === linked.subject_hash)) continue;
      const updated: UserDocument = {
        ...user,
        providers: user.providers.includes(linked.provider) ? user.providers : [...user.providers, linked.provider],
        identities: [...identities, { provider: linked.provider, subject_hash: linked.subject_hash }],
      };
      users.set(linked.user_id, updated);
      put(AUTH_COLLECTIONS.users, linked.user_id, updated);
    }
  }
  return [...changes.values()];
}

/** One backfill pass (see above). Store failures propagate. */
export function runAuthBackfill(deps: AuthDeps): BackfillPass {
  const { platform } = deps;
  let events = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { checkpoint } = runAuthProjection(platform);
    const stored = platform.projections.getDocument(PROGRESS);
    const progress = stored ? readAuthDocument<Progress>(PROGRESS.collection, stored.body) : { after: '0', done: false };
    if (progress.done) return { events, done: true };
    const after = BigInt(progress.after);
    const read = after < checkpoint ? platform.events.readAll(after, PAGE) : [];
    const upTo = read.filter((e) => e.sequence <= checkpoint);
    const done = read.length < PAGE || upTo.length < read.length || upTo.at(-1)!.sequence >= checkpoint;
    const next: Progress = { after: String(upTo.at(-1)?.sequence ?? after), done };
    const changes = [
      ...fold(
        deps,
        upTo.filter((e) => e.eventType.startsWith('auth_')),
      ),
      { tag: 'put' as const, val: { ...PROGRESS, body: writeAuthDocument(PROGRESS.collection, next) } },
    ];
    if (!platform.projections.commit(AUTH_PROJECTION, checkpoint, checkpoint, changes)) continue;
    events += upTo.length;
    if (done) return { events, done: true };
  }
  return { events, done: false };
}
