/**
 * One maintenance pass: what the application keeps and for how long, carried out through the
 * platform ports (docs/storage.md, "What is kept"). Ended sessions leave the read models and,
 * past their retention, the store; the store's own housekeeping runs where no host does it.
 */
import { runSessionRetention, type AuthDeps } from '../auth/application/index.ts';
import { runAuthBackfill } from '../auth/application/backfill.ts';
import { expireDeadLetters } from '../platform/mail-outbox-upkeep.ts';

export interface MaintenanceReport {
  /** events of an older store folded into the retention queue and identity lists (0 once done) */
  backfilled_events: number;
  sessions_ended: number;
  session_streams_removed: number;
  /** dead letters past MAIL_DEAD_LETTER_RETENTION_SECONDS removed from the mail outbox */
  mail_dead_letters_expired: number;
  /** Files or entries the store's own housekeeping removed (the file store; 0 where the host does it). */
  store_upkeep: number;
  /** Work was left for the next pass (a backlog bigger than one pass takes). */
  more: boolean;
}

/** Store failures propagate (the caller logs them; the next pass retries). */
export function runMaintenancePass(auth: AuthDeps): MaintenanceReport {
  // First: an older store's sessions join the queue this same pass works through.
  const backfill = runAuthBackfill(auth);
  const sessions = runSessionRetention(auth);
  const deadLetters = expireDeadLetters(auth.platform.projections, auth.platform.now(), auth.config.mailDeadLetterRetentionSeconds);
  const upkeep = auth.platform.storeUpkeep();
  return {
    backfilled_events: backfill.events,
    sessions_ended: sessions.ended,
    session_streams_removed: sessions.removed,
    mail_dead_letters_expired: deadLetters,
    store_upkeep: upkeep,
    more: sessions.more || !backfill.done,
  };
}
