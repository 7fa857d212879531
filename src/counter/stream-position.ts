/** Where an SSE stream starts: `Last-Event-ID`, else `?last_sequence=`, else 0. */
import { AppError } from '../errors.ts';

/**
 * Exported for the OpenAPI document (the parameters' pattern): at most 15 digits, so every value
 * the pattern allows is a safe integer and the document and the check agree exactly.
 */
export const UNSIGNED = /^\d{1,15}$/;

function invalid(raw: string | undefined): boolean {
  return raw !== undefined && !UNSIGNED.test(raw);
}

/** Each position given is checked, also the query's when the header wins: a request the document refuses is refused. */
export function parseStartPosition(lastEventId: string | undefined, lastSequence: string | undefined): number | AppError {
  const header = lastEventId?.trim();
  if (invalid(header)) return new AppError('validation', 'Last-Event-ID must be an unsigned integer');
  if (invalid(lastSequence)) return new AppError('validation', 'last_sequence must be an unsigned integer');
  return Number(header ?? lastSequence ?? 0);
}
