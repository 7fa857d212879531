/**
 * Storage evidence for operators: auth event counts by kind (every known kind, 0 when none),
 * their total, the store's latest sequence, and each auth projection's checkpoint. The
 * projection catches up first (failure logged, not fatal), so the checkpoint is current.
 */
import { AUTH_EVENT_TYPES } from '../domain/events.ts';
import type { AuthDeps } from './deps.ts';
import { AUTH_PROJECTION, runAuthProjectionQuietly } from './projection.ts';
import { AppError } from '../../errors.ts';

export interface StorageStatus {
  events: Record<string, number>;
  total: number;
  latest_sequence: number;
  projections: Array<{ name: string; checkpoint: number }>;
}

export function getStorageStatus(deps: AuthDeps): StorageStatus {
  const { platform } = deps;
  runAuthProjectionQuietly(platform);
  try {
    const events: Record<string, number> = Object.fromEntries(AUTH_EVENT_TYPES.map((type) => [type, 0]));
    for (const { eventType, count } of platform.events.countByType('auth_')) events[eventType] = Number(count);
    const total = Object.values(events).reduce((sum, n) => sum + n, 0);
    return {
      events,
      total,
      latest_sequence: Number(platform.events.headSequence()),
      projections: [{ name: AUTH_PROJECTION, checkpoint: Number(platform.projections.checkpoint(AUTH_PROJECTION)) }],
    };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
