/** Where an SSE stream starts: `Last-Event-ID`, else `?last_sequence=`, else 0. */
import { AppError } from '../errors.ts';

/** Exported for the OpenAPI document (the parameters' pattern). */
export const UNSIGNED = /^\d{1,16}$/;

export function parseStartPosition(lastEventId: string | undefined, lastSequence: string | undefined): number | AppError {
  const [raw, name] = lastEventId !== undefined ? [lastEventId.trim(), 'Last-Event-ID'] : [lastSequence, 'last_sequence'];
  if (raw === undefined) return 0;
  if (!UNSIGNED.test(raw) || !Number.isSafeInteger(Number(raw))) {
    return new AppError('validation', `${name} must be an unsigned integer`);
  }
  return Number(raw);
}
