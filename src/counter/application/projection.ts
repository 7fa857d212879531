/**
 * The `counter_projection`: folds counter events from the global log into the counter's read
 * model (read-model.ts), stored as the `counter_views` document, moving its checkpoint in the same
 * transaction. Safe to run from many workers at once: a commit that loses the race changes nothing
 * and the run stops.
 */
import { failureDetail } from '../../errors.ts';
import type { Platform } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { EMPTY_READ_MODEL, project, readModelChange, storedReadModel } from './read-model.ts';

export const COUNTER_PROJECTION = 'counter_projection';
const PAGE_SIZE = 500;

export interface ProjectionRun {
  /** checkpoint after the run */
  checkpoint: bigint;
  /** counter events folded into the read model */
  applied: number;
  /** true when another worker advanced the checkpoint first */
  superseded: boolean;
}

/** Catches the projection up with the event log. Throws on store failure or corrupt data. */
export function runCounterProjection(platform: Platform): ProjectionRun {
  // Checkpoint before document: if a competing commit lands in between, the document is ahead,
  // its events are skipped, and our commit (expecting the old checkpoint) is refused.
  let checkpoint = platform.projections.checkpoint(COUNTER_PROJECTION);
  let model = storedReadModel(platform) ?? EMPTY_READ_MODEL;
  let applied = 0;
  for (;;) {
    const page = platform.events.readAll(checkpoint, PAGE_SIZE);
    const last = page.at(-1);
    if (last === undefined) return { checkpoint, applied, superseded: false };
    const before = model;
    for (const event of page) {
      // Other streams share the global sequence; they only move the checkpoint.
      if (event.streamId !== COUNTER_STREAM_ID) continue;
      model = project(model, event);
    }
    applied += model.revision - before.revision;
    const changes = model === before ? [] : [readModelChange(model)];
    if (!platform.projections.commit(COUNTER_PROJECTION, checkpoint, last.sequence, changes)) {
      return { checkpoint, applied, superseded: true };
    }
    checkpoint = last.sequence;
    if (page.length < PAGE_SIZE) return { checkpoint, applied, superseded: false };
  }
}

/**
 * A run that fails only in the log: the next one catches up from the checkpoint. What the command
 * routine's last step runs after its response, and a view that found the projection behind.
 */
export function advanceProjection(platform: Platform): void {
  try {
    runCounterProjection(platform);
  } catch (error) {
    platform.logger.log('error', 'counter projection failed', { code: 'projection_failed', detail: failureDetail(error) });
  }
}
